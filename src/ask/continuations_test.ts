import assert from "node:assert/strict";
import { inAside, inPageOrder } from "./continuations.ts";
import { passage } from "./passage_fixture.ts";
import { type Pick, toPick } from "./pick.ts";

const at = (markdown: string, text: string) => inAside(markdown, markdown.indexOf(text));

Deno.test("a unit is in an aside inside a callout, not after it", () => {
  const mkdocs =
    "## `MODE`\n\nSets the mode.\n\n!!! note\n    The note's text.\n\nAfter the note.\n";
  assert.ok(at(mkdocs, "The note's"));
  assert.ok(!at(mkdocs, "After the note"));
  // A note in a list item holds its own indented lines; the item's text after it is the item's.
  const item =
    "## `MODE`\n\n- `auto` picks one.\n\n    !!! note\n        The note's text.\n\n    The item goes on.\n";
  assert.ok(at(item, "The note's"));
  assert.ok(!at(item, "The item goes on"));
  // A code block's `# comment` in a Docusaurus note is code, not a heading that ends the note.
  const docusaurus =
    "## `MODE`\n\n:::note\n\n```bash\n# install it first\nmake\n```\n\nStill the note.\n\n:::\n\nAfter.\n";
  assert.ok(at(docusaurus, "Still the note"));
  assert.ok(!at(docusaurus, "After."));
});

Deno.test("an announcement keeps its continuation right after it when an earlier list's item is picked too", () => {
  const markdown = "## Modes\n\n- `never` skips it.\n- `auto` runs it when needed.\n\n" +
    "The mode is one of these values:\n\n- `always` runs it.\n- `redo` runs it again.\n";
  const p = { ...passage("Modes", "Modes", markdown), section: "Modes" };
  const pick = (text: string, kind: "prose" | "item"): Pick => {
    const start = markdown.indexOf(text);
    const sentence = { text, start, end: start + text.length, kind, quote: text };
    return toPick({ passage: p, sentence, plain: text, coverage: 1 });
  };
  const announces = pick("The mode is one of these values:", "prose");
  const always = pick("- `always` runs it.", "item");
  const never = pick("- `never` skips it.", "item");
  const order = inPageOrder([announces, always, never]).map((u) => u.quote);
  assert.equal(
    order.indexOf("- `always` runs it."),
    order.indexOf(announces.quote) + 1,
    JSON.stringify(order),
  );
});

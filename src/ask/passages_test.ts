import assert from "node:assert/strict";
import { chunkMarkdown } from "../markdown/chunks.ts";
import { located } from "./passages.ts";

// A long section's later windows start with the previous window's last words, re-joined by
// single spaces: `located` gives the page's own text from the start of that sentence.

const items = Array.from(
  { length: 40 },
  (_, i) =>
    `- **Item ${i}**: pick it with ↑/↓ and Enter or Tab. Then\n  press Save to keep item ${i}.`,
).join("\n");
const markdown = `# Editing\n\n## Keys\n\n${items}\n`;

Deno.test("a window of a long section is found in its page and starts at a whole sentence, line breaks kept", () => {
  const windows = chunkMarkdown(markdown).filter((c) => c.headingPath.length === 2);
  assert.ok(windows.length >= 2, "the section is long enough to be split");
  const later = windows[1]!.text;
  assert.equal(markdown.indexOf(later), -1, "the re-joined window is not the page's text");
  const { text, offset } = located(markdown, later);
  assert.ok(offset > 0);
  assert.equal(markdown.slice(offset, offset + text.length), text);
  // It ends where the window ends, and starts at the start of a list item or a sentence.
  const squeeze = (t: string) => t.replace(/\s+/g, " ").trim();
  assert.ok(squeeze(text).endsWith(squeeze(later)));
  assert.match(text, /^(?:- \*\*Item \d+\*\*|Then|press|[A-Z])/);
  assert.ok(text.includes("\n- **Item"), "list items stay on their own lines");
  assert.ok(text.length >= later.length);
});

Deno.test("a chunk that is the page's text is given as it is; one not in the page keeps offset -1", () => {
  assert.deepEqual(located("# A\n\nOne. Two.", "One. Two."), { text: "One. Two.", offset: 5 });
  assert.deepEqual(located("# A\n\nOne.", "Three."), { text: "Three.", offset: -1 });
});

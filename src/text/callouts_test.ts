import assert from "node:assert/strict";
import { calloutAround } from "./callouts.ts";

/** The callout body around the first occurrence of `inside`, as text. */
const around = (markdown: string, inside: string) => {
  const found = calloutAround(markdown, markdown.indexOf(inside));
  return found && markdown.slice(...found);
};

Deno.test("a callout's body is found in each docs tool's syntax", () => {
  const body = "It fails if the stream exists.\nRemove the stream first.";
  const pages = [
    `Intro.\n\n{% hint style="warning" %}\n${body}\n{% endhint %}\n\nAfter.`,
    `Intro.\n\n:::warning\n\n${body}\n\n:::\n\nAfter.`,
    `Intro.\n\n<Warning>\n${body}\n</Warning>\n\nAfter.`,
    `Intro.\n\n> [!WARNING]\n> ${body.replace("\n", "\n> ")}\n\nAfter.`,
  ];
  for (const page of pages) {
    assert.match(around(page, "Remove the")!, /It fails if the stream exists\.\n(> )?Remove/);
    assert.equal(around(page, "After"), null, page);
    assert.equal(around(page, "Intro"), null, page);
  }
  const mkdocs = `Intro.\n\n!!! warning "Careful"\n    It fails if the stream exists.\n\n` +
    `    Remove the stream first.\n\nAfter.`;
  assert.equal(
    around(mkdocs, "Remove"),
    "    It fails if the stream exists.\n\n    Remove the stream first.",
  );
  assert.equal(around(mkdocs, "After"), null);
});

Deno.test("a callout never runs across a heading, and a closed one holds nothing after it", () => {
  const page = ":::note\nA note.\n:::\n\nText after.\n\n## Next\n\nMore.\n\n:::tip\nA tip.\n:::";
  assert.equal(around(page, "Text after"), null);
  assert.equal(around(page, "More"), null);
  assert.equal(around(page, "A tip"), "A tip.");
});

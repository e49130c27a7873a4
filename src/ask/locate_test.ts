import assert from "node:assert/strict";
import { chunkMarkdown } from "../markdown/chunks.ts";
import { findLoosely, located } from "./locate.ts";

// A long section's later windows start with the previous window's last words, re-joined by
// single spaces: `located` gives the page's own text from the start of that sentence.

const items = Array.from(
  { length: 40 },
  (_, i) =>
    `- **Item ${i}**: pick it with ↑/↓ and Enter or Tab. Then\n  press Save to keep item ${i}.`,
).join("\n");
const markdown = `# Editing\n\n## Keys\n\n${items}\n`;

Deno.test("a window of a long list is the page's text from an item's start, line breaks kept", () => {
  const windows = chunkMarkdown(markdown).filter((c) => c.headingPath.length === 2);
  assert.ok(windows.length >= 2, "the section is long enough to be split");
  const later = windows[1]!.text;
  assert.ok(markdown.indexOf(later) > 0, "the window carries whole items, as written");
  assert.match(later, /^- \*\*Item \d+\*\*/);
  assert.deepEqual(located(markdown, later), { text: later, offset: markdown.indexOf(later) });
});

Deno.test("a window re-joined by single spaces is found in its page and starts at a whole sentence, line breaks kept", () => {
  // As windows were cut before 2026-11-27, and as pages stored then still hold them.
  const lines = items.split("\n");
  const tail = lines.slice(0, 20).join("\n").split(/\s+/).slice(-40).join(" ");
  const later = `${tail}\n\n${lines.slice(20, 30).join("\n")}`;
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

Deno.test("a window in its page word for word, starting mid-sentence, starts at that sentence", () => {
  const paragraphs = Array.from(
    { length: 12 },
    (_, i) =>
      `Paragraph ${i} says what it says about tokens and spaces, and the way they keep working. ` +
      `It goes on for a while, so that the section is long enough to be cut into windows. ` +
      `It goes on further still, with more words in it, so that a window's first forty words ` +
      `stand inside one paragraph.`,
  ).join("\n\n");
  const page = `# Notes\n\n## Long\n\n${paragraphs}\n`;
  const windows = chunkMarkdown(page).filter((c) => c.headingPath.length === 2).slice(1);
  assert.ok(windows.length > 0);
  for (const w of windows) {
    assert.ok(page.indexOf(w.text) >= 0, "the window is the page's text");
    const { text, offset } = located(page, w.text);
    assert.equal(page.slice(offset, offset + text.length), text);
    assert.match(text, /^(?:Paragraph \d+|It goes on)/, text.slice(0, 60));
  }
});

Deno.test("a window in a paragraph without a full stop is not moved back further than a few hundred characters", () => {
  const words = Array.from({ length: 30_000 }, (_, i) => `word${i}`).join(" ");
  const page = `# Wall\n\n${words}\n`;
  const window = words.split(" ").slice(20_000, 20_300).join(" ");
  const { text, offset } = located(page, window);
  assert.equal(page.slice(offset, offset + text.length), text);
  assert.ok(text.length <= window.length + 600, String(text.length));
  assert.ok(text.endsWith("word20299"));
});

Deno.test("findLoosely finds text whatever its white space, and answers a miss on a large page", () => {
  const page = "# A\n\nOne  two\nthree.\tFour\n\n five.";
  const [s, e] = findLoosely(page, "two three. Four")!;
  assert.equal(page.slice(s, e), "two\nthree.\tFour");
  assert.deepEqual(findLoosely(page, "  five. "), [page.indexOf("five."), page.length]);
  assert.equal(findLoosely(page, "two four"), null);
  assert.equal(findLoosely(page, "   "), null);
  const big = "a ".repeat(500_000);
  assert.equal(findLoosely(big, `${"a ".repeat(300)}b`), null);
  assert.deepEqual(findLoosely(big, "a a"), [0, 3]);
});

Deno.test("a window of a long table or code block is found without the header or fence repeated into it", () => {
  const rows = Array.from({ length: 5 }, (_, i) => `| \`S${i}\` | ${i} |`);
  const page = `# Ref\n\n| Name | Default |\n| --- | --- |\n${
    rows.join("\n")
  }\n\n\`\`\`yaml\na: 1\nb: 2\nc: 3\n\`\`\`\n`;
  const tableWindow = `| Name | Default |\n| --- | --- |\n${rows.slice(3).join("\n")}`;
  assert.deepEqual(located(page, tableWindow), {
    text: rows.slice(3).join("\n"),
    offset: page.indexOf(rows[3]!),
  });
  const codeWindow = "```yaml\nb: 2\nc: 3\n```";
  assert.equal(located(page, codeWindow).offset, page.indexOf("b: 2"));
  const firstCodeWindow = "```yaml\na: 1\n```";
  assert.deepEqual(located(page, firstCodeWindow), {
    text: "```yaml\na: 1",
    offset: page.indexOf("```yaml"),
  });
});

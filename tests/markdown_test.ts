import assert from "node:assert/strict";
import { chunkMarkdown, MAX_WORDS } from "../src/markdown/chunks.ts";
import { extractLinks, rewriteLinks } from "../src/markdown/links.ts";
import { parsePage } from "../src/markdown/parse_page.ts";
import { cleanPath, pathKey, relativeHref } from "../src/markdown/paths.ts";

Deno.test("wikilinks are parsed with their labels and sections", () => {
  const links = extractLinks(
    "See [[Setup]], [[Guides/Install|install it]] and [[FAQ#Tokens]].",
    "Home",
  );
  assert.deepEqual(
    links.map((l) => [l.kind, l.target, l.label, l.section]),
    [
      ["wikilink", "Setup", null, null],
      ["wikilink", "Guides/Install", "install it", null],
      ["wikilink", "FAQ", null, "Tokens"],
    ],
  );
});

Deno.test("relative .md links resolve against the page's folder; other links are not page links", () => {
  const md = "[up](../Home.md) [side](Other%20page.md#part) [web](https://x.org/a.md) " +
    "[anchor](#top) ![img](pic.md) [file](notes.txt)";
  const links = extractLinks(md, "Guides/Setup");
  assert.deepEqual(links.map((l) => [l.target, l.section]), [["Home", null], [
    "Guides/Other page",
    "part",
  ]]);
});

Deno.test("links inside code blocks and code spans are ignored", () => {
  const md = "```\n[[Not a link]]\n```\nand `[[Nor this]]` but [[This]]";
  assert.deepEqual(extractLinks(md, "Home").map((l) => l.target), ["This"]);
});

Deno.test("paths compare case-insensitively with _ equal to space", () => {
  assert.equal(pathKey("Guides/Getting_Started"), pathKey("guides/getting started"));
  assert.equal(cleanPath(" Guides / Setup.md "), "Guides/Setup");
  assert.equal(cleanPath("a/../b"), null);
  assert.equal(cleanPath("bad[name]"), null);
});

Deno.test("rewriteLinks changes targets and keeps labels and sections", () => {
  const md = "[[Old|label]] [[Old#Part]] [x](Old.md#part) [[Keep]]";
  const out = rewriteLinks(md, "Home", (link) => link.target === "Old" ? "Guides/New" : null);
  assert.equal(out, "[[Guides/New|label]] [[Guides/New#Part]] [x](Guides/New.md#part) [[Keep]]");
  assert.equal(relativeHref("A/B/c", "A/D/e f"), "../D/e%20f.md");
});

Deno.test("the title comes from front matter, then the first heading, then the path", async () => {
  assert.equal(
    (await parsePage("p", "---\ntitle: From front\n---\n# Heading")).title,
    "From front",
  );
  assert.equal((await parsePage("p", "Intro\n\n## First *heading*\n")).title, "First heading");
  assert.equal((await parsePage("Guides/Setup", "no heading here")).title, "Guides/Setup");
  await assert.rejects(
    parsePage("p", "---\ntitle: [unclosed\n---\nbody"),
    /Front matter is not valid YAML/,
  );
});

Deno.test("chunks follow headings and carry their heading path and anchor", () => {
  const chunks = chunkMarkdown(
    "Intro text.\n# Guide\n## Install\nRun it.\n## Install\nAgain.\n```\n# not a heading\n```",
  );
  assert.deepEqual(chunks.map((c) => [c.headingPath, c.anchor]), [
    [[], ""],
    [["Guide", "Install"], "install"],
    [["Guide", "Install"], "install-1"],
  ]);
  assert.match(chunks[2]!.text, /# not a heading/);
});

Deno.test("a long section is split into overlapping passages of bounded size", () => {
  const sentence = (i: number) => `Sentence number ${i} says something about topic ${i}.`;
  const body = "# Long\n" + Array.from({ length: 200 }, (_, i) => sentence(i)).join(" ");
  const chunks = chunkMarkdown(body);
  assert.ok(chunks.length >= 4, `expected several chunks, got ${chunks.length}`);
  for (const c of chunks) assert.ok(c.text.split(/\s+/).length <= MAX_WORDS + 50);
  const lastWords = chunks[0]!.text.split(/\s+/).slice(-5).join(" ");
  assert.ok(
    chunks[1]!.text.includes(lastWords),
    "the next passage starts with the previous one's tail",
  );
});

import assert from "node:assert/strict";
import { extractLinks, rewriteLinks } from "./links.ts";
import { relativeHref } from "./paths.ts";

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

Deno.test("rewriteLinks changes targets and keeps labels and sections", () => {
  const md = "[[Old|label]] [[Old#Part]] [x](Old.md#part) [[Keep]]";
  const out = rewriteLinks(md, "Home", (link) => link.target === "Old" ? "Guides/New" : null);
  assert.equal(out, "[[Guides/New|label]] [[Guides/New#Part]] [x](Guides/New.md#part) [[Keep]]");
  assert.equal(relativeHref("A/B/c", "A/D/e f"), "../D/e%20f.md");
});

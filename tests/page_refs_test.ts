import assert from "node:assert/strict";
import { findSection, outlineOf, sectionAt, withoutTitleHeading } from "../src/markdown/outline.ts";
import { pageUrl, parsePageUrl } from "../src/lib/urls.ts";

Deno.test("parsePageUrl reads back what pageUrl and search write, section included", () => {
  const base = "https://wiki.example.com";
  const url = pageUrl(base, "docs", "Guides/Getting started");
  assert.deepEqual(parsePageUrl(base, `${url}#install`), {
    wiki: "docs",
    path: "Guides/Getting started",
    section: "install",
  });
  assert.deepEqual(parsePageUrl(base, `${base}/w/docs/Tools.md`), {
    wiki: "docs",
    path: "Tools",
    section: null,
  });
  // A base URL with a path prefix, and an address seen through another host.
  assert.equal(parsePageUrl("https://x.test/wiki", "https://x.test/wiki/w/a/B")?.wiki, "a");
  assert.equal(parsePageUrl(base, "http://localhost:8000/w/a/B")?.path, "B");
  for (
    const ref of [
      "Guides/Setup",
      "https://x.test/other/a/B",
      `${base}/w/docs`,
      `${base}/w/docs/%E0%A4%A`,
    ]
  ) {
    assert.equal(parsePageUrl(base, ref), null, ref);
  }
});

Deno.test("outlineOf gives each heading its anchor, offset and heading path", () => {
  const md =
    "# Setup\nIntro.\n\n## Install\nText.\n\n```\n# not a heading\n```\n## Install\nAgain.\n";
  const outline = outlineOf(md);
  assert.deepEqual(outline.map((h) => [h.anchor, h.path]), [
    ["setup", "Setup"],
    ["install", "Setup > Install"],
    ["install-1", "Setup > Install"],
  ]);
  assert.equal(md.slice(outline[1]!.offset).split("\n")[0], "## Install");
  assert.equal(findSection(outline, "#install-1"), outline[2]);
  assert.equal(findSection(outline, "INSTALL"), outline[1]);
  assert.equal(findSection(outline, "Setup > Install"), outline[1]);
  assert.equal(findSection(outline, "Nowhere"), null);
  assert.equal(sectionAt(outline, 0), "Setup");
  assert.equal(sectionAt(outline, md.indexOf("Text.")), "Setup > Install");
  assert.equal(sectionAt(outlineOf("Before any heading\n# Later"), 0), null);
  // Front matter (whose YAML comments look like headings) is not part of the outline.
  const withFront = "---\n# a comment\ntitle: T\n---\n# Real\n";
  assert.deepEqual(outlineOf(withFront).map((h) => [h.text, h.offset]), [
    ["Real", withFront.indexOf("# Real")],
  ]);
});

Deno.test("withoutTitleHeading drops only a leading level-one heading", () => {
  assert.equal(withoutTitleHeading("# Setup\n\nBody\n# Again"), "Body\n# Again");
  assert.equal(withoutTitleHeading("Body first\n# Setup"), "Body first\n# Setup");
  assert.equal(withoutTitleHeading("## Setup\nBody"), "## Setup\nBody");
});

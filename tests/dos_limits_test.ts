import assert from "node:assert/strict";
import { MAX_MARKDOWN_CHARS } from "../src/pages/write_page.ts";
import { renderMarkdown } from "../src/spaces/render_markdown.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { person, spaceApp } from "./space_helpers.ts";

// Denial of service limits (docs/security.md): each test holds one limit or one linear path.

/** Counts the calls of some array methods while `run` runs. */
function countArrayCalls<T>(names: ("findIndex" | "splice")[], run: () => T) {
  const proto = Array.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const saved = names.map((name) => [name, proto[name]!] as const);
  const calls: Record<string, number> = {};
  for (const [name, original] of saved) {
    calls[name] = 0;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      calls[name]!++;
      return original.apply(this, args);
    };
  }
  try {
    return { result: run(), calls };
  } finally {
    for (const [name, original] of saved) proto[name] = original;
  }
}

Deno.test("a page of 40,000 missing relative links renders in one pass, each marked missing", () => {
  const markdown = "[a](q.md) ".repeat(40_000);
  const context = { wikiId: "kb", path: "P", targets: new Map(), canCreate: false };
  const { result: html, calls } = countArrayCalls(
    ["findIndex", "splice"],
    () => renderMarkdown(markdown, context),
  );
  const note = '<span class="sr-only"> (page not written yet)</span></a>';
  assert.equal(html.split(note).length - 1, 40_000, "every link closes with its note");
  assert.equal(html.split('<a href="/w/kb/q" class="missing"').length - 1, 40_000);
  // The quadratic version searched the link's children from the start and spliced the note
  // in, once per missing link: 40,000 of each.
  assert.ok(calls.findIndex! < 100, `findIndex called ${calls.findIndex} times`);
  assert.ok(calls.splice! < 100, `splice called ${calls.splice} times`);
});

Deno.test("a page of the largest size renders, links and all", () => {
  const markdown = "[a](q.md) [[W]] ".repeat(Math.floor(MAX_MARKDOWN_CHARS / 16));
  assert.ok(markdown.length <= MAX_MARKDOWN_CHARS && markdown.length > MAX_MARKDOWN_CHARS - 16);
  const html = renderMarkdown(markdown, {
    wikiId: "kb",
    path: "P",
    targets: new Map([["w", "W"]]),
    canCreate: false,
  });
  assert.equal(html.split('<a href="/w/kb/W">W</a>').length - 1, markdown.length / 16);
});

Deno.test("a preview over the page-size cap is refused with 413, as a save is", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", ownerAccountId: ana.id });
  const big = "x".repeat(MAX_MARKDOWN_CHARS + 1);

  const fragment = await ana.submit("/w/kb/-/preview", { path: "P", markdown: big });
  assert.equal(fragment.status, 413);
  assert.match(await fragment.text(), /over 2000000 characters, the most a page may hold/);

  const noScript = await ana.submit("/w/kb/-/new", { path: "P", markdown: big, action: "preview" });
  assert.equal(noScript.status, 413);
  assert.match(await noScript.text(), /over 2000000 characters, the most a page may hold/);

  const fits = await ana.submit("/w/kb/-/preview", { path: "P", markdown: "# Fits" });
  assert.equal(fits.status, 200);
});

Deno.test("uploaded file names keep their '=' and ';'", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", ownerAccountId: ana.id });
  const encode = (text: string) => new TextEncoder().encode(text);
  const res = await ana.upload("/w/kb/-/import", [
    new File([encode("# A\n\nx")], "a=b.md"),
    new File([encode("# C\n\ny")], "c;d=e.md"),
  ]);
  const page = await res.text();
  assert.equal(res.status, 200, page.slice(0, 500));
  assert.match(page, /2 created, 0 updated, 0 unchanged, 0 failed\./);
  const paths = await db<{ path: string }>`SELECT path FROM pages ORDER BY path`;
  assert.deepEqual(paths.map((p) => p.path), ["a=b", "c;d=e"]);
});

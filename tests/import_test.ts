import assert from "node:assert/strict";
import type { Db } from "../src/db/db.ts";
import { importPages } from "../src/importer/import_pages.ts";
import { readSources } from "../src/importer/read_sources.ts";
import { resolvePageRef } from "../src/pages/read_page.ts";
import { selectLinksFrom, selectRevisions } from "../src/pages/store.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testDeps } from "./helpers.ts";

const encode = (text: string) => new TextEncoder().encode(text);

async function folderOf(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = await Deno.makeTempDir();
  for (const [name, content] of Object.entries(files)) {
    const path = `${dir}/${name}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeFile(path, typeof content === "string" ? encode(content) : content);
  }
  return dir;
}

async function importInto(db: Db, source: string) {
  return await importPages(testDeps(db), "w", await readSources(source));
}

Deno.test("importing the same folder twice changes nothing the second time", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "w" });
  const dir = await folderOf({
    "Home.md": "# Home\n[[Guides/Setup]]",
    "Guides/Setup.md": "# Setup\n[back](../Home.md)",
    "notes.txt": "not markdown",
    ".git/HEAD.md": "hidden",
  });
  assert.deepEqual(await importInto(db, dir), {
    added: 2,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    failed: [],
  });
  assert.deepEqual(await importInto(db, dir), {
    added: 0,
    updated: 0,
    unchanged: 2,
    deleted: 0,
    failed: [],
  });
  const home = await resolvePageRef(db, "w", "Home");
  assert.equal(home.revision, 1);
  assert.deepEqual((await selectLinksFrom(db, home.id)).map((l) => l.other_path), ["Guides/Setup"]);
  await Deno.writeTextFile(`${dir}/Home.md`, "# Home\nChanged.");
  assert.deepEqual(await importInto(db, dir), {
    added: 0,
    updated: 1,
    unchanged: 1,
    deleted: 0,
    failed: [],
  });
});

Deno.test("a corrupt file is reported by name and skipped; the rest imports", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "w" });
  const dir = await folderOf({
    "Good.md": "# Good",
    "Bad front matter.md": "---\ntitle: [oops\n---\n# Bad",
    "Latin1.md": new Uint8Array([0x23, 0x20, 0xe9, 0xe8, 0xff]),
    "Binary.md": new Uint8Array([0x23, 0x00, 0x01]),
  });
  const summary = await importInto(db, dir);
  assert.equal(summary.added, 1);
  assert.deepEqual(summary.failed.map((f) => f.name).sort(), [
    "Bad front matter.md",
    "Binary.md",
    "Latin1.md",
  ]);
  assert.match(summary.failed.find((f) => f.name === "Latin1.md")!.error, /not UTF-8/);
  assert.match(summary.failed.find((f) => f.name === "Bad front matter.md")!.error, /Front matter/);
  await resolvePageRef(db, "w", "Good");
});

Deno.test("pages.jsonl imports with its titles; a bad line is reported by number", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "w" });
  const dir = await folderOf({
    "pages.jsonl": [
      JSON.stringify({ path: "A/1", title: "First", markdown: "# Heading one\ntext" }),
      "{not json",
      JSON.stringify({ path: "A/2", markdown: 5 }),
      JSON.stringify({ path: "A/3", title: "Third", markdown: "text" }),
    ].join("\n"),
  });
  const summary = await importInto(db, `${dir}/pages.jsonl`);
  assert.equal(summary.added, 2);
  assert.deepEqual(summary.failed.map((f) => f.name), ["line 2", "line 3"]);
  assert.equal((await resolvePageRef(db, "w", "A/1")).title, "First");
});

Deno.test("an import interrupted mid-page leaves that page fully old and resumes cleanly", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "w" });
  const v1 = { "A.md": "# A\nv1", "B.md": "# B\nv1 [[A]]", "C.md": "# C\nv1" };
  const dir = await folderOf(v1);
  await importInto(db, dir);
  // A crash inside B's write, after its page row was updated and before its links were.
  await db.exec(`
    CREATE FUNCTION fail_on_boom() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.target = 'Boom' THEN RAISE EXCEPTION 'simulated crash'; END IF; RETURN NEW; END $$;
    CREATE TRIGGER boom BEFORE INSERT ON links FOR EACH ROW EXECUTE FUNCTION fail_on_boom();`);
  await Deno.writeTextFile(`${dir}/A.md`, "# A\nv2");
  await Deno.writeTextFile(`${dir}/B.md`, "# B\nv2 [[Boom]]");
  await Deno.writeTextFile(`${dir}/C.md`, "# C\nv2");
  await assert.rejects(importInto(db, dir), /simulated crash/);
  assert.equal((await resolvePageRef(db, "w", "A")).markdown, "# A\nv2");
  const b = await resolvePageRef(db, "w", "B");
  assert.equal(b.markdown, "# B\nv1 [[A]]");
  assert.equal(b.revision, 1);
  assert.deepEqual((await selectLinksFrom(db, b.id)).map((l) => l.target), ["A"]);
  assert.equal((await selectRevisions(db, b.id)).length, 1);
  assert.equal((await resolvePageRef(db, "w", "C")).markdown, "# C\nv1");
  await db.exec("DROP TRIGGER boom ON links");
  assert.deepEqual(await importInto(db, dir), {
    added: 0,
    updated: 2,
    unchanged: 1,
    deleted: 0,
    failed: [],
  });
});

Deno.test("two files that map to one page path: the second is reported, not merged", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "w" });
  const dir = await folderOf({ "Setup.md": "# one", "sub/x.md": "x", "setup.markdown": "# two" });
  const summary = await importInto(db, dir);
  assert.equal(summary.added, 2);
  assert.equal(summary.failed.length, 1);
  assert.match(summary.failed[0]!.error, /same page path/);
});

/** The wiki's stored statistics against a recount from its chunks and postings. */
async function indexMatches(db: Db, wikiId: string) {
  const [drift] = await db<{ df: number; totals: number }>`
    SELECT
      (SELECT count(*)::int FROM term_stats s
        WHERE s.wiki_id = ${wikiId} AND s.df <> (SELECT count(*) FROM chunk_terms p
          WHERE p.wiki_id = s.wiki_id AND p.term = s.term)) AS df,
      (SELECT count(*)::int FROM search_stats s
        WHERE s.wiki_id = ${wikiId}
          AND (s.chunks <> (SELECT count(*) FROM chunks c WHERE c.wiki_id = s.wiki_id)
            OR s.length_sum <> (SELECT coalesce(sum(length), 0) FROM chunks c
              WHERE c.wiki_id = s.wiki_id))) AS totals`;
  return drift;
}

Deno.test("pages import in batches: one transaction, links between them, a matching index", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "w" });
  const deps = testDeps(db);
  const pages = Array.from({ length: 6 }, (_, i) => ({
    name: `P${i}.md`,
    path: `P${i}`,
    markdown: `# P${i}\nAbout zebra${i} and [[P${(i + 1) % 6}]].`,
  }));
  const progress: number[] = [];
  const summary = await importPages(deps, "w", pages, {
    onProgress: (done) => progress.push(done),
  });
  assert.equal(summary.added, 6);
  assert.deepEqual(progress, [1, 2, 3, 4, 5, 6]);
  // One transaction wrote them all: now() is the same for every page.
  const [stamps] = await db<{ n: number }>`SELECT count(DISTINCT created_at)::int AS n FROM pages`;
  assert.equal(stamps!.n, 1);
  for (let i = 0; i < 6; i++) {
    const page = await resolvePageRef(db, "w", `P${i}`);
    assert.deepEqual((await selectLinksFrom(db, page.id)).map((l) => l.other_path), [
      `P${(i + 1) % 6}`,
    ]);
    assert.equal((await selectRevisions(db, page.id)).length, 1);
  }
  assert.deepEqual(await indexMatches(db, "w"), { df: 0, totals: 0 });
  // An update in a batch takes the old chunks out of the statistics.
  const changed = pages.map((p, i) => i % 2 ? { ...p, markdown: `# P${i}\nNow gnu${i}.` } : p);
  assert.deepEqual(await importPages(deps, "w", changed), {
    added: 0,
    updated: 3,
    unchanged: 3,
    deleted: 0,
    failed: [],
  });
  assert.deepEqual(await indexMatches(db, "w"), { df: 0, totals: 0 });
  assert.equal((await resolvePageRef(db, "w", "P1")).revision, 2);
});

Deno.test("a page that fails inside a batch is reported; the rest of the batch is written", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "w" });
  // A reserved first segment fails only once the page is known to be new, inside the write.
  const pages = ["A", "-/tools", "B", "C"].map((path) => ({
    name: `${path}.md`,
    path,
    markdown: `# ${path}\ntext`,
  }));
  const summary = await importPages(testDeps(db), "w", pages);
  assert.equal(summary.added, 3);
  assert.deepEqual(summary.failed.map((f) => f.name), ["-/tools.md"]);
  assert.match(summary.failed[0]!.error, /reserved/);
  assert.deepEqual(await indexMatches(db, "w"), { df: 0, totals: 0 });
});

import assert from "node:assert/strict";
import type { Db } from "../src/db/db.ts";
import { importPages } from "../src/importer/import_pages.ts";
import type { SourcePage } from "../src/importer/read_sources.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { bulkLoadPages } from "../scripts/bench/bulk_load.ts";
import { countPostingMismatches } from "../scripts/bench/postings.ts";
import { asSources, readEvalSets, replicaPages } from "../scripts/bench/corpus.ts";
import { freshDb, testDeps } from "./helpers.ts";

/** The eval sets live beside this repository (`../shared/eval`); a clone without them skips. */
const EVAL_DIR = new URL("../../shared/eval", import.meta.url).pathname;
const evalSetsAbsent = await Deno.stat(EVAL_DIR).then(() => false, () => true);
if (evalSetsAbsent) {
  console.warn(`bench_bulk_load_test: skipped, it reads the eval sets in ${EVAL_DIR}, absent here`);
}

/** Every row a page write leaves, without ids or times, in a stable order. */
async function rowsOf(db: Db) {
  return {
    pages: await db`
      SELECT path, path_key, name_key, title, markdown, revision, content_hash
      FROM pages ORDER BY path`,
    revisions: await db`
      SELECT p.path, r.revision, r.action, r.title, r.markdown, r.content_hash,
        r.author_account_id, r.source
      FROM page_revisions r JOIN pages p ON p.id = r.page_id ORDER BY p.path, r.revision`,
    links: await db`
      SELECT f.path, l.position, l.kind, l.target, l.target_key, l.section, l.label, t.path AS to_path
      FROM links l JOIN pages f ON f.id = l.from_page_id LEFT JOIN pages t ON t.id = l.to_page_id
      ORDER BY f.path, l.position`,
    chunks: await db`
      SELECT p.path, c.ord, c.heading_path, c.anchor, c.heading_text, c.text, c.length,
        c.embedder, c.embedding::text AS embedding
      FROM chunks c JOIN pages p ON p.id = c.page_id ORDER BY p.path, c.ord`,
    postings: await db`
      SELECT p.path, c.ord, t.term, t.tf_heading, t.tf_body, t.length
      FROM chunk_terms t JOIN chunks c ON c.id = t.chunk_id JOIN pages p ON p.id = c.page_id
      ORDER BY p.path, c.ord, t.term`,
    termStats: await db`SELECT term, df FROM term_stats WHERE df > 0 ORDER BY term`,
    searchStats: await db`SELECT wiki_id, chunks, length_sum FROM search_stats ORDER BY wiki_id`,
  };
}

Deno.test("the bench's bulk loader leaves the rows an import leaves, copies included", {
  ignore: evalSetsAbsent,
}, async () => {
  const sets = await readEvalSets(EVAL_DIR);
  const base = [...sets.scifact.pages.slice(0, 12), ...sets.squad.pages.slice(0, 8)];
  const pages: SourcePage[] = [
    ...asSources(base),
    ...replicaPages(base, 0, 25),
    {
      name: "Guides/Setup.md",
      path: "Guides/Setup",
      markdown: "# Setup\n\nSee [[Home]] and [[Missing page]].\n\n## Steps\n\nRun the server.",
    },
    { name: "Home.md", path: "Home", markdown: "# Home\n\nStart at [[Guides/Setup#Steps]]." },
  ];
  await using imported = await freshDb();
  await using bulk = await freshDb();
  for (const db of [imported, bulk]) await createWiki(db, { id: "w" });
  const summary = await importPages(testDeps(imported), "w", pages);
  assert.equal(summary.added, pages.length);
  const loaded = await bulkLoadPages(testDeps(bulk), "w", pages, { batchSize: 7 });
  const expected = await rowsOf(imported);
  assert.equal(loaded.pages, pages.length);
  assert.equal(loaded.chunks, expected.chunks.length);
  assert.ok(loaded.copied >= 20, `${loaded.copied} copies took the copy path`);
  assert.ok(expected.links.some((l) => l.to_path === "Home"));
  assert.deepEqual(await rowsOf(bulk), expected);
  // The offline embedder's vectors are not stored, by the import or by the bulk loader.
  assert.ok(expected.chunks.every((c) => c.embedder === null && c.embedding === null));
  assert.equal(await countPostingMismatches(bulk, "w", 100), 0);
});

import assert from "node:assert/strict";
import { migrate, readMigrations } from "../src/db/migrate.ts";
import { deletePage } from "../src/pages/rename_page.ts";
import { writePage } from "../src/pages/write_page.ts";
import { reindexVectors } from "../src/search/reindex.ts";
import { rankPages } from "../src/search/search_wikis.ts";
import { countStaleChunks, ensureVectorIndex } from "../src/search/vector_index.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testDeps } from "./helpers.ts";

const by = { source: "test" };

Deno.test("migration 0016 clears the offline embedder's stored vectors and index; a real model's stay", async () => {
  await using db = await freshDb({ migrate: false });
  const all = await readMigrations();
  await migrate(db, all.filter((m) => m.version < 16));
  await createWiki(db, { id: "w" });
  const deps = testDeps(db, { EMBEDDING_DIMENSIONS: "32" });
  // What the version before left: the offline embedder's vectors stored, with an HNSW index,
  // beside the vectors of a real model (here the same hashing under another name).
  const storedOffline = { ...deps.embedder, weak: false };
  const model = { ...storedOffline, id: "test:model:32" };
  for (const [embedder, path] of [[storedOffline, "Solar"], [model, "Wind"]] as const) {
    await ensureVectorIndex(db, embedder);
    await writePage({ ...deps, embedder }, {
      wikiId: "w",
      path,
      markdown: `# ${path}\n${path} power on the roof.`,
    }, by);
  }
  const indexes = () =>
    db<{ indexname: string }>`
      SELECT indexname FROM pg_indexes WHERE indexname LIKE 'chunks_hnsw%' ORDER BY indexname`;
  assert.equal((await indexes()).length, 2);

  await migrate(db, all);
  const chunks = await db<{ path: string; embedder: string | null; vectors: number }>`
    SELECT p.path, c.embedder, count(c.embedding)::int AS vectors
    FROM chunks c JOIN pages p ON p.id = c.page_id GROUP BY p.path, c.embedder ORDER BY p.path`;
  assert.deepEqual(chunks, [
    { path: "Solar", embedder: null, vectors: 0 },
    { path: "Wind", embedder: "test:model:32", vectors: 1 },
  ]);
  assert.deepEqual(await db`SELECT embedder FROM vector_indexes`, [{ embedder: "test:model:32" }]);
  const kept = await indexes();
  assert.equal(kept.length, 1);
  assert.match(kept[0]!.indexname, /^chunks_hnsw_32_/);

  // The offline embedder searches the migrated store lexically, with nothing to re-index.
  assert.deepEqual(
    (await rankPages(deps, ["w"], "roof power", "hybrid")).map((r) => r.path).sort(),
    [
      "Solar",
      "Wind",
    ],
  );
  assert.equal(await countStaleChunks(db, deps.embedder), 0);
  assert.equal(await reindexVectors(deps, null), 0);
  // The real model still finds its page by vector, and `reindex` embeds the cleared chunks.
  const modelDeps = { ...deps, embedder: model };
  assert.deepEqual((await rankPages(modelDeps, ["w"], "wind", "vector")).map((r) => r.path), [
    "Wind",
  ]);
  assert.equal(await countStaleChunks(db, model), 1);
  assert.equal(await reindexVectors(modelDeps, null), 1);
  assert.equal(await countStaleChunks(db, model), 0);
});

Deno.test("postings leave with their chunks: a page rewritten, a page deleted, a wiki deleted", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "a" });
  await createWiki(db, { id: "b" });
  for (const wikiId of ["a", "b"]) {
    for (const path of ["One", "Two"]) {
      await writePage(deps, { wikiId, path, markdown: `# ${path}\nApples and pears.` }, by);
    }
  }
  const orphans = async () =>
    (await db<{ n: number }>`
      SELECT count(*)::int AS n FROM chunk_terms t
      WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = t.chunk_id)`)[0]!.n;
  const postings = async (wikiId: string) =>
    (await db<{ n: number }>`
      SELECT count(*)::int AS n FROM chunk_terms WHERE wiki_id = ${wikiId}`)[0]!.n;
  const before = await postings("a");
  assert.ok(before > 0);
  await writePage(deps, { wikiId: "a", path: "One", markdown: "# One\nPlums only." }, by);
  await deletePage(deps, { wikiId: "a", path: "Two" }, by);
  assert.equal(await orphans(), 0);
  assert.ok(await postings("a") < before);
  await db`DELETE FROM wikis WHERE id = 'b'`;
  assert.equal(await postings("b"), 0);
  assert.equal(await orphans(), 0);
});

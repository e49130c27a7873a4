import assert from "node:assert/strict";
import { deletePage, renamePage } from "../src/pages/rename_page.ts";
import { writePage } from "../src/pages/write_page.ts";
import { importPages } from "../src/importer/import_pages.ts";
import { BM25 } from "../src/search/fusion.ts";
import { buildIndex, lexicalCacheSize, lexicalTopK } from "../src/search/lexical_cache.ts";
import { topKChunks } from "../src/search/lexical_index.ts";
import { rankPages } from "../src/search/search_wikis.ts";
import { selectBm25, selectLexicalStats } from "../src/search/store.ts";
import { deleteWikiConfirmed } from "../src/spaces/wiki_settings.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, otherProcess, testDeps } from "./helpers.ts";
import { random, WORDS } from "./seeded_words.ts";

const by = { source: "test" };

/** Pages of skewed random words (a few words are common, most rare), some of them repeated. */
function corpus(count: number, next: () => number): { path: string; markdown: string }[] {
  const word = () => WORDS[Math.floor(WORDS.length * next() ** 2)]!;
  const sentence = () => Array.from({ length: 4 + Math.floor(next() * 10) }, word).join(" ");
  const pages = [];
  for (let i = 0; i < count; i++) {
    const body = Array.from({ length: 1 + Math.floor(next() * 4) }, sentence).join(". ");
    const section = next() < 0.5 ? `\n\n## ${word()} ${word()}\n\n${sentence()}.` : "";
    pages.push({ path: `P${i}`, markdown: `# ${word()} ${i}\n\n${body}.${section}` });
  }
  // Identical text under other titles: equal body scores, ordered by chunk id.
  for (let i = 0; i < 5; i++) {
    pages.push({ path: `Copy${i}`, markdown: pages[i]!.markdown.replace(/^# .*/, `# Copy ${i}`) });
  }
  return pages;
}

/** Pages as an import reads them (a batch: one transaction for many pages). */
function named(pages: { path: string; markdown: string }[]) {
  return pages.map((p) => ({ name: `${p.path}.md`, ...p }));
}

function queries(next: () => number): string[] {
  return Array.from(
    { length: 40 },
    () =>
      Array.from(
        { length: 1 + Math.floor(next() * 5) },
        () => WORDS[Math.floor(WORDS.length * next())]!,
      ).join(" "),
  );
}

/**
 * A ranking with scores that differ only by floating-point rounding counted as ties, ordered
 * by chunk id: PostgreSQL's hash aggregate adds a chunk's terms in no fixed order, so two
 * chunks with the same score can differ in the last bit there (and rank either way).
 */
function canonical(hits: { chunk_id: number; score: number }[]) {
  return hits.map((h) => ({ chunk_id: h.chunk_id, score: Number(h.score.toPrecision(12)) }))
    .sort((a, b) => b.score - a.score || a.chunk_id - b.chunk_id);
}

/** The in-memory leg against the exhaustive SQL leg: the same chunks with the same scores. */
async function assertSameAsExhaustive(
  deps: ReturnType<typeof testDeps>,
  wikiIds: string[],
  qs: string[],
) {
  for (const q of qs) {
    const fast = canonical(await lexicalTopK(deps, wikiIds, q, BM25, 20)).slice(0, 10);
    const exact = canonical(await selectBm25(deps.db, wikiIds, q, BM25, 20)).slice(0, 10);
    assert.ok(exact.length > 0 || q === "", q);
    assert.deepEqual(fast, exact, q);
  }
}

Deno.test("the in-memory lexical leg ranks as exhaustive BM25 does, through writes of every kind", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  const next = random(16);
  await createWiki(db, { id: "w" });
  await createWiki(db, { id: "v" });
  const pages = corpus(60, next);
  await importPages(deps, "w", named(pages.slice(0, 40)));
  for (const page of pages.slice(40)) await writePage(deps, { wikiId: "w", ...page }, by);
  await importPages(deps, "v", named(corpus(20, random(7))));
  const qs = queries(next);
  await assertSameAsExhaustive(deps, ["w"], qs);
  await assertSameAsExhaustive(deps, ["w", "v"], qs);

  // Updates, a rename, deletions and a batch: the index catches up page by page.
  for (let i = 0; i < 8; i++) {
    await writePage(
      deps,
      { wikiId: "w", path: `P${i}`, markdown: corpus(1, next)[0]!.markdown },
      by,
    );
  }
  await renamePage(deps, { wikiId: "w", path: "P10", newPath: "Moved/P10" }, by);
  await deletePage(deps, { wikiId: "w", path: "P11" }, by);
  await deletePage(deps, { wikiId: "w", path: "Copy1" }, by);
  await importPages(
    deps,
    "w",
    named(corpus(10, next).map((p) => ({ ...p, path: `New/${p.path}` }))),
  );
  await assertSameAsExhaustive(deps, ["w"], qs);
  await assertSameAsExhaustive(deps, ["w", "v"], qs);

  // The caught-up index scores as one built from scratch at the same version.
  let compared = 0;
  for (const q of qs) {
    const [stats] = await selectLexicalStats(db, ["w"], q);
    if (!stats || stats.terms.length === 0) continue;
    const fresh = topKChunks((await buildIndex(db, "w", stats.version))!, stats, BM25, 10);
    assert.deepEqual(await lexicalTopK(deps, ["w"], q, BM25, 10), fresh, q);
    compared++;
  }
  assert.ok(compared > 0, "some query was compared");
  // Most pages rewritten at once (dead chunks dropped from the lists), then more new pages than
  // a catch-up takes (the wiki is read again).
  await importPages(
    deps,
    "w",
    named(corpus(60, next).map((p, i) => ({ ...p, path: i < 40 ? `P${i}` : `New/P${i - 40}` }))),
  );
  await assertSameAsExhaustive(deps, ["w"], qs);
  await importPages(
    deps,
    "w",
    named(corpus(120, next).map((p) => ({ ...p, path: `More/${p.path}` }))),
  );
  await assertSameAsExhaustive(deps, ["w", "v"], qs);
  const [held] = lexicalCacheSize(db).filter((s) => s.wiki === "w");
  const postings = await db<{ n: number }>`
    SELECT count(*)::int AS n FROM chunk_terms WHERE wiki_id = 'w'`;
  assert.ok(held && held.postings >= postings[0]!.n, "the index holds every posting");
});

Deno.test("a page written by one process is found at once by the lexical leg of another over the same store", async () => {
  await using db = await freshDb();
  const writer = testDeps(db);
  const other = otherProcess(db);
  const reader = testDeps(other);
  /** The pages the other app's lexical leg finds (the vector leg would find any page). */
  const search = async (q: string) =>
    (await rankPages(reader, ["w"], q, "lexical")).map((r) => r.path);
  try {
    await createWiki(db, { id: "w", visibility: "public" });
    await writePage(
      writer,
      { wikiId: "w", path: "Rivers", markdown: "# Rivers\nWater flows." },
      by,
    );
    assert.deepEqual(await search("water"), ["Rivers"]); // the other app builds its index
    assert.deepEqual(await search("zeppelin"), []);

    await writePage(writer, {
      wikiId: "w",
      path: "Airships",
      markdown: "# Airships\nA zeppelin floats over water.",
    }, by);
    assert.deepEqual(await search("zeppelin"), ["Airships"]);
    assert.deepEqual((await search("water")).sort(), ["Airships", "Rivers"]);

    await writePage(
      writer,
      { wikiId: "w", path: "Airships", markdown: "# Airships\nBalloons." },
      by,
    );
    assert.deepEqual(await search("zeppelin"), []);
    assert.deepEqual(await search("balloons"), ["Airships"]);

    await renamePage(writer, { wikiId: "w", path: "Airships", newPath: "Craft/Airships" }, by);
    assert.deepEqual(await search("balloons"), ["Craft/Airships"]);

    await deletePage(writer, { wikiId: "w", path: "Craft/Airships" }, by);
    assert.deepEqual(await search("balloons"), []);
    assert.deepEqual(await search("water"), ["Rivers"]);
  } finally {
    await other.close();
  }
});

Deno.test("a wiki deleted and created again under its id is never searched through the old index", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  const search = async (q: string) =>
    (await rankPages(deps, ["w"], q, "lexical")).map((r) => r.path);
  await createWiki(db, { id: "w" });
  await writePage(deps, { wikiId: "w", path: "Old", markdown: "# Old\nA walrus sleeps." }, by);
  assert.deepEqual(await search("walrus"), ["Old"]);
  assert.deepEqual(await deleteWikiConfirmed(db, "w", "w"), { ok: true });
  await createWiki(db, { id: "w" });
  await writePage(deps, { wikiId: "w", path: "New", markdown: "# New\nA walrus swims." }, by);
  assert.deepEqual(await search("walrus"), ["New"]);
});

Deno.test("with no memory for indexes, the lexical leg is scored in SQL and ranks as the in-memory index does", async () => {
  await using db = await freshDb();
  const deps = testDeps(db, { SEARCH_INDEX_MB: "0" });
  await createWiki(db, { id: "w" });
  await importPages(deps, "w", named(corpus(30, random(3))));
  // Another process with memory for indexes ranks from its in-memory copy.
  const other = otherProcess(db);
  const inMemory = testDeps(other);
  let compared = 0;
  for (const q of queries(random(4))) {
    const sql = canonical(await lexicalTopK(deps, ["w"], q, BM25, 20)).slice(0, 10);
    const memory = canonical(await lexicalTopK(inMemory, ["w"], q, BM25, 20)).slice(0, 10);
    assert.deepEqual(sql, memory, q);
    compared += sql.length;
  }
  assert.ok(compared > 0);
  assert.deepEqual(lexicalCacheSize(db), [], "nothing is held in memory");
  assert.notDeepEqual(lexicalCacheSize(other), [], "the other process holds the wiki's index");
  await other.close();
});

Deno.test("with more wikis searched than memory holds, a wiki is read into memory only when searched more often than the index it would drop", async () => {
  await using db = await freshDb();
  // Room for one of the two wikis' indexes: each is over half a megabyte (words of their own).
  const deps = testDeps(db, { SEARCH_INDEX_MB: "1" });
  const pages = (w: string) =>
    Array.from({ length: 250 }, (_, i) => ({
      path: `P${i}`,
      markdown: `# Bird ${i}\n\nA falcon seen near marker ${i}. ${
        Array.from({ length: 48 }, (_, j) => `${w}${i}x${j}`).join(" ")
      }.`,
    }));
  for (const w of ["a", "b"]) {
    await createWiki(db, { id: w });
    await importPages(deps, w, named(pages(w)));
  }
  const held = () => lexicalCacheSize(db).map((e) => e.wiki).sort();
  const search = (w: string) => assertSameAsExhaustive(deps, [w], ["falcon marker", "bird"]);
  for (let i = 0; i < 2; i++) await search("a");
  assert.deepEqual(held(), ["a"]);
  // b's first searches are answered in SQL (the same results): reading b would drop a, searched
  // as often, which the next search of a would read again.
  await search("b");
  assert.deepEqual(held(), ["a"], "b is not read while a is searched at least as often");
  await search("b");
  await search("b");
  assert.deepEqual(held(), ["b"], "searched more often than a, b is read and a dropped");
});

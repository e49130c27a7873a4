import assert from "node:assert/strict";
import { writePage } from "../src/pages/write_page.ts";
import { fuse } from "../src/search/fusion.ts";
import { reindexOtherScripts } from "../src/search/reindex.ts";
import { rankPages } from "../src/search/search_wikis.ts";
import { lexicalText, tokenize } from "../src/text/terms.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";

const by = { source: "test" };

type Found = { results: { page: string; title: string; score: number | null }[] };

/** A public wiki with pages in several scripts, and one of emoji only. */
async function polyglotWiki() {
  const db = await freshDb();
  const { app, deps } = testApp(db, { RATE_LIMIT_ANON_PER_MINUTE: "100000" });
  await createWiki(db, { id: "world", visibility: "public" });
  const pages: [string, string][] = [
    ["Tokyo", "# 東京\n\n東京タワーは東京都港区にある電波塔です。"],
    ["Hello", "# Привет мир\n\nЭто страница о приветствиях на русском языке."],
    ["Greek", "# Καλημέρα κόσμε\n\nΑυτή η σελίδα είναι στα ελληνικά."],
    ["Emoji", "# 🙂\n\n🙂🙂 ??? !!!"],
    ["Cats", "# Cats\n\nCats purr and sleep in the sun."],
  ];
  for (const [path, markdown] of pages) {
    await writePage(deps, { wikiId: "world", path, markdown }, by);
  }
  return { db, app };
}

Deno.test("search scores are finite numbers for every query, over REST and MCP, whatever the pages hold", async () => {
  const wiki = await polyglotWiki();
  await using _db = wiki.db;
  const { app } = wiki;
  const mcp = await mcpClient(app, "/mcp/w/world/");
  try {
    for (const q of ["???", "🙂", "привет", "東京", "cats", "Καλημέρα"]) {
      const res = await app.request(`/api/v1/public/wikis/world/search?q=${encodeURIComponent(q)}`);
      assert.equal(res.status, 200, q);
      const rest = await res.json() as Found;
      for (const r of rest.results) {
        assert.ok(typeof r.score === "number" && Number.isFinite(r.score), `${q}: ${r.score}`);
      }
      // The SDK client validates structured content against the tool's output schema.
      const viaMcp = await callOk<Found>(mcp, "search", { query: q });
      for (const r of viaMcp.results) assert.ok(Number.isFinite(r.score), `${q} (MCP)`);
    }
    const cats = await (await app.request("/api/v1/public/wikis/world/search?q=cats")).json();
    assert.equal(cats.results[0].page, "Cats", "an emoji page does not poison English search");
  } finally {
    await mcp.close();
  }
});

Deno.test("pages in Cyrillic, Greek and CJK are found by their words", async () => {
  const wiki = await polyglotWiki();
  await using _db = wiki.db;
  const { app } = wiki;
  const first = async (q: string) => {
    const res = await app.request(`/api/v1/public/wikis/world/search?q=${encodeURIComponent(q)}`);
    return ((await res.json()) as Found).results[0]?.page;
  };
  assert.equal(await first("東京"), "Tokyo");
  assert.equal(await first("電波塔"), "Tokyo", "a word inside a CJK run, by its bigrams");
  assert.equal(await first("привет"), "Hello");
  assert.equal(await first("русском языке"), "Hello");
  assert.equal(await first("καλημέρα"), "Greek");
  assert.equal(await first("ελληνικά"), "Greek");
});

Deno.test("tokenize keeps English as it was and splits other scripts into words or bigrams", () => {
  assert.deepEqual(tokenize("Running dogs, naïve café!"), ["running", "dogs", "naive", "cafe"]);
  assert.deepEqual(tokenize("Привет, мир"), ["привет", "мир"]);
  assert.deepEqual(tokenize("東京タワー"), ["東京", "京タ", "タワ", "ワー"]);
  assert.deepEqual(tokenize("東"), ["東"]);
  assert.deepEqual(tokenize("??? 🙂"), []);
  assert.equal(lexicalText("in 東京都 today"), "in  東京 京都  today");
});

Deno.test("fusion ignores non-finite scores instead of spreading them", () => {
  const fused = fuse(
    [{ chunk_id: 1, score: 2 }],
    [{ chunk_id: 2, score: NaN }, { chunk_id: 1, score: 0.5 }],
    0.9,
  );
  assert.ok(fused.every((h) => Number.isFinite(h.score)));
  assert.deepEqual(fused.map((h) => h.chunk_id), [1]);
});

Deno.test("reindexOtherScripts brings pages indexed the old way up to date, English pages untouched", async () => {
  const wiki = await polyglotWiki();
  await using db = wiki.db;
  const deps = testDeps(db);
  // As an older version left it: the Tokyo page without bigram postings.
  await db`
    WITH gone AS (
      DELETE FROM chunk_terms WHERE chunk_id IN (
        SELECT c.id FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.path = 'Tokyo')
      RETURNING term
    )
    UPDATE term_stats s SET df = s.df - g.n
    FROM (SELECT term, count(*)::int AS n FROM gone GROUP BY term) g
    WHERE s.wiki_id = 'world' AND s.term = g.term`;
  const lexical = async (q: string) =>
    (await rankPages(deps, ["world"], q, "lexical")).map((r) => r.path);
  assert.deepEqual(await lexical("電波塔"), []);
  const catsBefore = await db<{ id: number }>`
    SELECT c.id FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.path = 'Cats'`;

  const pages = await reindexOtherScripts(deps, null);
  assert.equal(pages, 1, "Tokyo (CJK)");
  assert.deepEqual(await lexical("電波塔"), ["Tokyo"]);
  const catsAfter = await db<{ id: number }>`
    SELECT c.id FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.path = 'Cats'`;
  assert.deepEqual(catsAfter, catsBefore, "an English page keeps its chunks");
  const [stats] = await db<{ bad: number }>`
    SELECT count(*)::int AS bad FROM term_stats s
    WHERE s.wiki_id = 'world' AND s.df <> (
      SELECT count(*) FROM chunk_terms t WHERE t.wiki_id = s.wiki_id AND t.term = s.term)`;
  assert.equal(stats!.bad, 0, "document frequencies match the postings");
  // Pages with CJK text are done again on every run (idempotent). The offline embedder stores
  // no vectors, so none of its old zero vectors is left to find (migration 0016).
  assert.equal(await reindexOtherScripts(deps, null), 1);
  assert.deepEqual(await lexical("電波塔"), ["Tokyo"]);
});

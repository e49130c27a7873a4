import assert from "node:assert/strict";
import { importPages } from "../src/importer/import_pages.ts";
import { BM25 } from "../src/search/fusion.ts";
import { lexicalTopK } from "../src/search/lexical_cache.ts";
import { searchWikis } from "../src/search/search_wikis.ts";
import { selectBm25 } from "../src/search/store.ts";
import { HYPHENATED_WHOLE } from "../src/text/terms.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testDeps } from "./helpers.ts";

/**
 * The page about the query's topic says "self renewal"; another page only says
 * "self-renewing". PostgreSQL reads the query's "self-renewing" as `self-renew`, `self` and
 * `renew`: counted whole as well, the rare whole form outweighed the query's other words.
 */
const PAGES = [
  {
    path: "Alveolar",
    markdown: "# Alveolar\n\nLung tissue macrophages keep their numbers by self renewal.",
  },
  { path: "Stem", markdown: "# Stem\n\nStem cells are self-renewing and divide slowly." },
  { path: "Gut", markdown: "# Gut\n\nMacrophages line the gut tissue." },
  { path: "Skin", markdown: "# Skin\n\nSkin tissue holds macrophages too." },
  { path: "Liver", markdown: "# Liver\n\nKupffer cells are the liver's tissue macrophages." },
  { path: "Blood", markdown: "# Blood\n\nMonocytes circulate in the blood." },
  { path: "Bone", markdown: "# Bone\n\nOsteoclasts resorb bone." },
  { path: "Cytokines", markdown: "# Cytokines\n\nIL-6 signals inflammation." },
].map((p) => ({ name: `${p.path}.md`, ...p }));

Deno.test("a hyphenated query word counts by its parts: the page on the topic ranks first", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "w" });
  await importPages(deps, "w", PAGES);
  const { results } = await searchWikis(deps, ["w"], { query: "self-renewing tissue macrophages" });
  assert.deepEqual(results.slice(0, 2).map((r) => r.page), ["Alveolar", "Stem"]);
  // Written apart, the same words rank the same way.
  const apart = await searchWikis(deps, ["w"], { query: "self renewing tissue macrophages" });
  assert.deepEqual(apart.results.map((r) => r.page), results.map((r) => r.page));
  // The in-memory leg and the exhaustive SQL leg skip the same terms: same chunks, same scores.
  for (const q of ["self-renewing tissue macrophages", "state-of-the-art stem cells", "IL-6"]) {
    const round = (hits: { chunk_id: number; score: number }[]) =>
      hits.map((h) => ({ id: h.chunk_id, score: Number(h.score.toPrecision(12)) }));
    const exact = round(await selectBm25(db, ["w"], q, BM25, 10));
    assert.ok(exact.length > 0, q);
    assert.deepEqual(round(await lexicalTopK(deps, ["w"], q, BM25, 10)), exact, q);
  }
});

Deno.test("only hyphenated words taken whole match the pattern, not numbers, hosts or paths", async () => {
  await using db = await freshDb();
  const matches = async (lexeme: string) =>
    (await db<{ m: boolean }>`SELECT ${lexeme}::text ~ ${HYPHENATED_WHOLE}::text AS m`)[0]!.m;
  for (const whole of ["self-renew", "h2a-h2b", "state-of-the-art", "привет-мир", "x-ray"]) {
    assert.ok(await matches(whole), whole);
  }
  for (const kept of ["renew", "-6", "1e-5", "my-site.com", "a-b@x.com", "/usr/my-file", "a:b-c"]) {
    assert.ok(!await matches(kept), kept);
  }
});

Deno.test("a hyphenated word made of stop words (to-do, as-is) is still searched whole", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "w" });
  await importPages(deps, "w", [
    { name: "Plans.md", path: "Plans", markdown: "# Plans\n\nOur to-do list shipped as-is." },
    ...PAGES,
  ]);
  for (const q of ["to-do", "as-is", "how-to"]) {
    const { results } = await searchWikis(deps, ["w"], { query: q });
    if (q === "how-to") assert.deepEqual(results, [], q);
    else assert.deepEqual(results.map((r) => r.page), ["Plans"], q);
    const round = (hits: { chunk_id: number; score: number }[]) =>
      hits.map((h) => ({ id: h.chunk_id, score: Number(h.score.toPrecision(12)) }));
    assert.deepEqual(
      round(await lexicalTopK(deps, ["w"], q, BM25, 10)),
      round(await selectBm25(db, ["w"], q, BM25, 10)),
      q,
    );
  }
});

import assert from "node:assert/strict";
import { exhaustiveTopK, maxScoreTopK, type ScoredPostings } from "./top_k.ts";

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  return () => { // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** BM25 postings of a random corpus whose word frequencies fall off as in text (Zipf). */
function corpus(seed: number, docs: number, vocabulary: number) {
  const next = random(seed);
  const terms = new Map<number, Map<number, number>>();
  const lengths: number[] = [];
  for (let d = 0; d < docs; d++) {
    const length = 5 + Math.floor(next() * 80);
    lengths.push(length);
    for (let w = 0; w < length; w++) {
      const term = Math.floor(vocabulary ** next()) - 1;
      const tfs = terms.get(term) ?? new Map<number, number>();
      tfs.set(d, (tfs.get(d) ?? 0) + 1);
      terms.set(term, tfs);
    }
  }
  const avgdl = lengths.reduce((a, b) => a + b, 0) / docs;
  const postings = (term: number): ScoredPostings => {
    const tfs = [...(terms.get(term) ?? new Map<number, number>())].sort((a, b) => a[0] - b[0]);
    const idf = Math.log(1 + (docs - tfs.length + 0.5) / (tfs.length + 0.5));
    const scores = tfs.map(([d, tf]) =>
      idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * lengths[d]! / avgdl))
    );
    return { ids: tfs.map(([d]) => d), scores, max: Math.max(0, ...scores) };
  };
  return { next, postings };
}

Deno.test("MaxScore's top 10 is exhaustive BM25's, from fewer postings", () => {
  const { next, postings } = corpus(7, 2_000, 3_000);
  let fewer = 0;
  let read = 0;
  let all = 0;
  for (let q = 0; q < 300; q++) {
    const words = 1 + Math.floor(next() * 8);
    const lists = Array.from({ length: words }, () => postings(Math.floor(3_000 ** next()) - 1));
    const exact = exhaustiveTopK(lists, 10);
    const fast = maxScoreTopK(lists, 10);
    assert.deepEqual(
      fast.hits.map((h) => h.chunk_id),
      exact.hits.map((h) => h.chunk_id),
      `query ${q}`,
    );
    fast.hits.forEach((h, i) => assert.ok(Math.abs(h.score - exact.hits[i]!.score) < 1e-9));
    assert.ok(fast.scored <= exact.scored);
    if (fast.scored < exact.scored) fewer++;
    read += fast.scored;
    all += exact.scored;
  }
  // Pruning pays on multi-word queries with a frequent word among rare ones.
  assert.ok(fewer > 100, `${fewer} of 300 queries scored fewer postings`);
  assert.ok(read < 0.8 * all, `scored ${read} of ${all} postings`);
});

Deno.test("MaxScore handles ties, empty lists and k above the matches", () => {
  const lists: ScoredPostings[] = [
    { ids: [1, 2, 3, 4], scores: [1, 1, 1, 1], max: 1 },
    { ids: [], scores: [], max: 0 },
    { ids: [2, 4], scores: [0.5, 0.5], max: 0.5 },
  ];
  assert.deepEqual(maxScoreTopK(lists, 3).hits, exhaustiveTopK(lists, 3).hits);
  assert.deepEqual(maxScoreTopK(lists, 3).hits.map((h) => h.chunk_id), [2, 4, 1]);
  assert.deepEqual(maxScoreTopK(lists, 10).hits.map((h) => h.chunk_id), [2, 4, 1, 3]);
  assert.deepEqual(maxScoreTopK([], 10).hits, []);
});

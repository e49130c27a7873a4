/**
 * The in-memory lexical leg's own cost, without the database: a synthetic wiki of `chunks`
 * chunks of 80 terms each drawn from a Zipf vocabulary (8 million postings at 100k chunks, as
 * the bench wiki has), then queries of 8 terms; prints the build time, bytes per posting and
 * p50 / p95 of `topKChunks` (top 100) with the postings each query reads.
 * `deno run scripts/bench/lexical_scoring.ts [chunks]`
 */
import { BM25 } from "../../src/search/fusion.ts";
import {
  addChunk,
  addPosting,
  emptyIndex,
  indexBytes,
  topKChunks,
} from "../../src/search/lexical_index.ts";
import { quantile, round } from "../../src/search/metrics.ts";

const chunks = Number(Deno.args[0] ?? 100_000);
const VOCABULARY = 50_000;
let seed = 42;
const next = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
// Zipf-like rank: common terms are frequent, most are rare.
const termOf = () => Math.floor(Math.exp(next() * Math.log(VOCABULARY)));
const t0 = performance.now();
const index = emptyIndex("synthetic", 1, chunks);
const df = new Map<number, number>();
for (let c = 0; c < chunks; c++) {
  const terms = new Map<number, number>();
  for (let i = 0; i < 80; i++) {
    const t = termOf();
    terms.set(t, (terms.get(t) ?? 0) + 1);
  }
  const local = addChunk(index, c + 1, c + 1, 80);
  for (const [t, tf] of terms) {
    addPosting(index, `t${t}`, local, 0, tf);
    df.set(t, (df.get(t) ?? 0) + 1);
  }
}
const buildMs = performance.now() - t0;
const times: number[] = [];
const read: number[] = [];
for (let q = 0; q < 300; q++) {
  const terms = [...new Set(Array.from({ length: 8 }, termOf))];
  const stats = {
    n: chunks,
    avgdl: 80,
    terms: terms.map((t) => `t${t}`),
    dfs: terms.map((t) => df.get(t) ?? 1),
  };
  const t = performance.now();
  topKChunks(index, stats, BM25, 100);
  times.push(performance.now() - t);
  read.push(terms.reduce((n, t) => n + (df.get(t) ?? 0), 0));
}
console.log(JSON.stringify({
  chunks,
  postings: index.postings,
  build_ms: round(buildMs),
  bytes_per_posting: round(indexBytes(index) / index.postings),
  postings_per_query_p50: quantile(read, 0.5),
  postings_per_query_p95: quantile(read, 0.95),
  top100_p50_ms: round(quantile(times, 0.5)),
  top100_p95_ms: round(quantile(times, 0.95)),
  load: Deno.loadavg(),
}));

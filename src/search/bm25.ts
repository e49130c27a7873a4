import type { Bm25Params } from "./store.ts";

/**
 * BM25's inverse document frequency of a term found in `df` of a wiki's `n` chunks (the
 * "+ 1" form, never negative). `selectBm25` (store.ts) computes the same in SQL.
 */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** The body's length normalisation of a chunk, `1 − b + b · length / avgdl`. */
export function bm25Norm(length: number, avgdl: number, params: Bm25Params): number {
  return 1 - params.b + params.b * length / avgdl;
}

/**
 * One term's BM25 contribution to one chunk, BM25F-style: the body's frequency is normalised by
 * the chunk's length against the wiki's average, the heading text's frequency counts
 * `headingWeight` times without length normalisation (a long section keeps its heading's
 * weight), and the sum is saturated by k1. The whole scoring of the in-memory index is this
 * function, `bm25Norm` and `bm25Idf`; `selectBm25` (store.ts), the exhaustive SQL leg, writes
 * the same expression in the same order of operations, so both give the same floating-point
 * score per posting. The chunk's `bm25Norm` is computed once per chunk and average.
 */
export function bm25TermNormed(
  idf: number,
  tfHeading: number,
  tfBody: number,
  norm: number,
  params: Bm25Params,
): number {
  const tf = tfBody / norm + params.headingWeight * tfHeading;
  return idf * tf * (params.k1 + 1) / (tf + params.k1);
}

import type { Embedder } from "./embedder.ts";
import type { Bm25Params, ChunkHit } from "./store.ts";

/** BM25 parameters, tuned on the development sets (docs/retrieval.md). */
export const BM25: Bm25Params = { k1: 1.2, b: 0.75, headingWeight: 2 };

/** How many chunks each leg contributes before fusion. */
export const CANDIDATES = 100;

/**
 * The share of the lexical leg in the fused score. It depends on the embedder: the offline
 * embedder is lexical at heart and weaker than BM25 alone, so it only breaks near-ties;
 * a real embedding model gets an even share. Measured in docs/retrieval.md.
 */
export function lexicalWeight(embedder: Pick<Embedder, "weak">): number {
  return embedder.weak ? 0.94 : 0.5;
}

/**
 * Weighted sum of each leg's scores divided by that leg's best score (max normalisation),
 * so the best lexical and the best vector hit are each worth their leg's whole weight.
 * Non-finite scores are dropped, so every fused score is a finite number in [0, 1].
 */
export function fuse(lexical: ChunkHit[], vector: ChunkHit[], weight: number): ChunkHit[] {
  const fused = new Map<number, number>();
  const add = (all: ChunkHit[], w: number) => {
    // A chunk whose vector has no direction (text of emoji or punctuation only) is NaN
    // apart from every query: one such score would make the maximum, and so every fused
    // score, NaN. Only finite scores take part.
    const hits = all.filter((h) => Number.isFinite(h.score));
    const top = hits.reduce((m, h) => Math.max(m, h.score), 0);
    if (top <= 0 || w === 0) return;
    for (const h of hits) fused.set(h.chunk_id, (fused.get(h.chunk_id) ?? 0) + w * h.score / top);
  };
  add(lexical, weight);
  add(vector, 1 - weight);
  return [...fused].map(([chunk_id, score]) => ({ chunk_id, score }))
    .sort((a, b) => b.score - a.score || a.chunk_id - b.chunk_id);
}

/**
 * How hybrid search uses an embedder's vectors. `leg`: a vector leg of its own (nearest chunks
 * by ANN or exact scan), fused with the lexical leg — for real embedding models, whose
 * neighbours find passages without the query's words. `rerank`: the lexical leg's candidates
 * re-scored by their stored vectors (exact cosine over at most `CANDIDATES` rows), and the
 * vector leg only when the lexical leg finds fewer than `MIN_LEXICAL` chunks. The offline
 * embedder is lexical at heart: its own leg cost 7× the lexical latency for +0.003 nDCG@10
 * on SciFact (docs/decisions.md, Retrieval).
 */
export function vectorPolicy(embedder: Pick<Embedder, "weak">): "leg" | "rerank" {
  return embedder.weak ? "rerank" : "leg";
}

/** Under `rerank`, a lexical leg with fewer chunks than this is joined by the vector leg. */
export const MIN_LEXICAL = 10;

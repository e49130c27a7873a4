import type { Embedder } from "../lib/embedder.ts";
import type { Bm25Params, ChunkHit } from "./store.ts";

/** BM25 parameters, tuned on the development sets (docs/retrieval.md). */
export const BM25: Bm25Params = { k1: 1.2, b: 0.75, headingWeight: 2 };

/** How many chunks each leg contributes before fusion. */
export const CANDIDATES = 100;

/**
 * The share of the lexical leg in the fused score. It depends on the embedder: a weak one
 * (lexical at heart, weaker than BM25 alone) only breaks near-ties, 0.94 as measured for the
 * offline embedder while it had a vector leg (it has none now, `storesVectors`, but its hybrid
 * scores keep that scale, on which `ask`'s verdict was fitted); a real embedding model gets an
 * even share. Measured in docs/retrieval.md.
 */
export function lexicalWeight(embedder: Pick<Embedder, "weak">): number {
  return embedder.weak ? 0.94 : 0.5;
}

/**
 * Weighted sum of each leg's scores divided by that leg's best score (max normalisation),
 * so the best lexical and the best vector hit are each worth their leg's whole weight.
 * Non-finite scores are dropped, so every fused score is a finite number in [0, 1]. A hit keeps
 * the page its leg named (the in-memory lexical leg names it).
 */
export function fuse(lexical: ChunkHit[], vector: ChunkHit[], weight: number): ChunkHit[] {
  const fused = new Map<number, number>();
  const pages = new Map<number, number>();
  const add = (all: ChunkHit[], w: number) => {
    // A chunk whose vector has no direction (text of emoji or punctuation only) is NaN
    // apart from every query: one such score would make the maximum, and so every fused
    // score, NaN. Only finite scores take part.
    const hits = all.filter((h) => Number.isFinite(h.score));
    const top = hits.reduce((m, h) => Math.max(m, h.score), 0);
    if (top <= 0 || w === 0) return;
    for (const h of hits) {
      fused.set(h.chunk_id, (fused.get(h.chunk_id) ?? 0) + w * h.score / top);
      if (h.page_id !== undefined && !pages.has(h.chunk_id)) pages.set(h.chunk_id, h.page_id);
    }
  };
  add(lexical, weight);
  add(vector, 1 - weight);
  return [...fused].map(([chunk_id, score]) => {
    const page_id = pages.get(chunk_id);
    return page_id === undefined ? { chunk_id, score } : { chunk_id, score, page_id };
  })
    .sort((a, b) => b.score - a.score || a.chunk_id - b.chunk_id);
}

/**
 * Whether chunks store this embedder's vectors (and an HNSW index serves them), so hybrid search
 * has a vector leg of its own (nearest chunks by ANN or exact scan), fused with the lexical leg —
 * for real embedding models, whose neighbours find passages without the query's words. Not for
 * the offline embedder (`weak`), which is lexical at heart: hybrid is the lexical leg alone and
 * no vector is stored. Re-ranking BM25's top 100 by its vectors gained 0.003 nDCG@10 on SciFact
 * and 0.001 R@5 on SQuAD, while storing them (with their HNSW index) cost most of an import,
 * and embedding the candidates' text at query time costs more than the lexical leg itself
 * (docs/decisions.md, Retrieval).
 */
export function storesVectors(embedder: Pick<Embedder, "weak">): boolean {
  return !embedder.weak;
}

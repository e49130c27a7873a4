import type { ChunkHit } from "./store.ts";

/**
 * The ranking with the first of the best `depth` chunks after the first that `takes` accepts,
 * scoring at least `share` of the best, in first place: the two trade places and scores, so
 * the scores keep their order and what `ask` weighs of them (its verdict's margin) stays on the
 * same scale. The ranking as given when none is accepted. The re-ranking rules that move one
 * chunk to the top (`defaultFirst`, `namedSettingFirst`) decide only what `takes`.
 */
export function tradeFirst(
  hits: ChunkHit[],
  depth: number,
  share: number,
  takes: (hit: ChunkHit) => boolean,
): ChunkHit[] {
  const last = Math.min(hits.length, depth);
  for (let j = 1; j < last && hits[j]!.score >= share * hits[0]!.score; j++) {
    if (!takes(hits[j]!)) continue;
    const out = [...hits];
    out[0] = { ...hits[j]!, score: hits[0]!.score };
    out[j] = { ...hits[0]!, score: hits[j]!.score };
    return out;
  }
  return hits;
}

// Seeded test corpora: the same pages on every run, so a failure can be replayed.

/** A deterministic pseudo-random generator (mulberry32). */
export function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Thirty plain words that stem to themselves, for pages of random text. */
export const WORDS =
  ("river stone forest engine copper lantern harbor meadow signal garden falcon " +
    "winter crystal orchard thunder violet compass marble canyon willow ember glacier beacon " +
    "saddle tundra quarry velvet mosaic prism cedar").split(" ");

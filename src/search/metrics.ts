/** Ranking quality of one query: `ranked` page paths, best first, against the `gold` paths. */
export function scoreQuery(ranked: string[], gold: string[]) {
  const relevant = new Set(gold);
  const hitsIn = (k: number) => ranked.slice(0, k).filter((p) => relevant.has(p)).length;
  const recall = (k: number) => relevant.size === 0 ? 0 : hitsIn(k) / relevant.size;
  const first = ranked.slice(0, 10).findIndex((p) => relevant.has(p));
  let dcg = 0;
  ranked.slice(0, 10).forEach((p, i) => {
    if (relevant.has(p)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(relevant.size, 10); i++) ideal += 1 / Math.log2(i + 2);
  return {
    "recall@1": recall(1),
    "recall@5": recall(5),
    "recall@10": recall(10),
    "recall@100": recall(100),
    "mrr@10": first < 0 ? 0 : 1 / (first + 1),
    "ndcg@10": ideal === 0 ? 0 : dcg / ideal,
  };
}

/** The mean of each metric over queries, rounded to 4 places. */
export function meanScores(scores: ReturnType<typeof scoreQuery>[]): Record<string, number> {
  const keys = Object.keys(scores[0] ?? {}) as (keyof ReturnType<typeof scoreQuery>)[];
  return Object.fromEntries(
    keys.map((
      k,
    ) => [k, round(scores.reduce((sum, s) => sum + s[k], 0) / Math.max(scores.length, 1))]),
  );
}

/** The q-quantile of a list of numbers (nearest rank). */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Rounds to 4 decimal places. */
export function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

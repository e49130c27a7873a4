/**
 * One query term's postings for top-k retrieval: chunk ids in ascending order, each with the
 * term's BM25 contribution to that chunk, and the largest contribution (the list's upper bound).
 */
export type ScoredPostings = { ids: number[]; scores: number[]; max: number };

/** A top-k result: chunks best first (ties by ascending id), and how many postings were scored. */
export type TopK = { hits: { chunk_id: number; score: number }[]; scored: number };

/**
 * Exact top-k by summing every posting of every list (what the SQL lexical leg does).
 */
export function exhaustiveTopK(lists: ScoredPostings[], k: number): TopK {
  const sums = new Map<number, number>();
  let scored = 0;
  for (const list of lists) {
    for (let i = 0; i < list.ids.length; i++) {
      sums.set(list.ids[i]!, (sums.get(list.ids[i]!) ?? 0) + list.scores[i]!);
      scored++;
    }
  }
  const hits = [...sums].map(([chunk_id, score]) => ({ chunk_id, score }))
    .sort(byScore).slice(0, k);
  return { hits, scored };
}

/**
 * Exact top-k with MaxScore (Turtle & Flood 1995, as Lucene and PISA use it): lists sorted by
 * upper bound; those whose bounds together cannot lift a chunk above the current k-th score are
 * "non-essential" and only probed for chunks found in the others, and a candidate stops being
 * probed as soon as its score plus the remaining bounds falls below the k-th score. The result
 * is that of `exhaustiveTopK` (same order, same ties), having scored fewer postings.
 */
export function maxScoreTopK(lists: ScoredPostings[], k: number): TopK {
  // Each list keeps its place in `lists`: a chunk's score is summed in that order, as
  // `exhaustiveTopK` sums it, so equal inputs give bit-identical scores and the same ties.
  const sorted = lists.map((l, at) => ({ ...l, at })).filter((l) => l.ids.length > 0)
    .sort((a, b) => a.max - b.max);
  const n = sorted.length;
  const parts = new Float64Array(lists.length);
  // bound[i]: the most lists 0..i can add together.
  const bound: number[] = [];
  sorted.reduce((sum, l, i) => bound[i] = sum + l.max, 0);
  const cursor = new Array<number>(n).fill(0);
  const heap: { chunk_id: number; score: number }[] = []; // worst first
  let threshold = -Infinity;
  let firstEssential = 0;
  let scored = 0;
  // A candidate is dropped only when it cannot reach the k-th score even with a margin for
  // floating-point rounding, so ties and near-ties are scored in full.
  const below = (score: number) => score < threshold - 1e-9 * Math.abs(threshold);
  for (;;) {
    let doc = Infinity;
    for (let i = firstEssential; i < n; i++) {
      const id = sorted[i]!.ids[cursor[i]!];
      if (id !== undefined && id < doc) doc = id;
    }
    if (doc === Infinity) break;
    let score = 0;
    parts.fill(0);
    for (let i = firstEssential; i < n; i++) {
      const list = sorted[i]!;
      if (list.ids[cursor[i]!] === doc) {
        score += list.scores[cursor[i]!]!;
        parts[list.at] = list.scores[cursor[i]!]!;
        cursor[i]!++;
        scored++;
      }
    }
    for (let i = firstEssential - 1; i >= 0; i--) {
      if (below(score + bound[i]!)) break;
      const list = sorted[i]!;
      const at = seek(list.ids, cursor[i]!, doc);
      cursor[i] = at;
      if (list.ids[at] === doc) {
        score += list.scores[at]!;
        parts[list.at] = list.scores[at]!;
        scored++;
      }
    }
    score = 0;
    for (const part of parts) score += part;
    if (heap.length < k) {
      heap.push({ chunk_id: doc, score });
      heap.sort((a, b) => byScore(b, a));
    } else if (byScore({ chunk_id: doc, score }, heap[0]!) < 0) {
      heap[0] = { chunk_id: doc, score };
      heap.sort((a, b) => byScore(b, a));
    } else continue;
    if (heap.length === k) {
      threshold = heap[0]!.score;
      while (firstEssential < n && below(bound[firstEssential]!)) firstEssential++;
    }
  }
  return { hits: heap.sort(byScore), scored };
}

/** Best first; equal scores by ascending chunk id (the SQL leg's order). */
function byScore(a: { chunk_id: number; score: number }, b: { chunk_id: number; score: number }) {
  return b.score - a.score || a.chunk_id - b.chunk_id;
}

/** The first position at or after `from` whose id is at least `id` (galloping, then binary). */
function seek(ids: number[], from: number, id: number): number {
  let step = 1;
  let hi = from;
  while (hi < ids.length && ids[hi]! < id) {
    from = hi + 1;
    hi += step;
    step *= 2;
  }
  hi = Math.min(hi, ids.length);
  while (from < hi) {
    const mid = (from + hi) >>> 1;
    if (ids[mid]! < id) from = mid + 1;
    else hi = mid;
  }
  return from;
}

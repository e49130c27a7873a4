import type { Deps } from "../../src/deps.ts";
import { round } from "../../src/search/metrics.ts";
import { lexicalCacheSize, warmLexicalIndex } from "../../src/search/lexical_cache.ts";
import { searchWikis } from "../../src/search/search_wikis.ts";
import { HUB_SEARCH_WIKIS } from "../../src/mcp/servers.ts";
import { listPublicWikiIds, listPublicWikis } from "../../src/wikis/list_public_wikis.ts";
import { type Latency, measureLatency, type RunLimits } from "./latency.ts";

/** A hub's shape: how many public wikis, how many chunks in all, how skewed their sizes are. */
export type HubPlan = { wikis: number; chunks: number; skew: number };

/** What the hub tier measures. */
export type HubFigures = {
  wikis: number;
  chunks: number;
  largest_wiki_chunks: number;
  median_wiki_chunks: number;
  load_seconds: number;
  list_wikis_page: Latency;
  per_wiki_search: Latency[];
  /** The largest wiki alone, then the median-sized wiki alone, at each concurrency. */
  largest_wiki_search: Latency[];
  median_wiki_search: Latency[];
  across_wikis_search: Latency[];
  across_wikis_covered: number;
  cold_first_search: Latency;
  rss_mib: number;
  index_cache_mib_max: number;
  /** What the index cache holds after all of it, by its own count (`lexicalCacheSize`). */
  index_cache_mib_held: number;
  index_cache_wikis_held: number;
};

/** The hub's wiki ids, `hub-0000` (the largest) on. */
export function hubWikiId(i: number): string {
  return `hub-${String(i).padStart(4, "0")}`;
}

/**
 * Chunks per wiki: a Zipf-like share, `1 / (i + 1)^skew` of the total for the i-th wiki (as
 * hubs are: a few large libraries, a long tail of small ones), at least one each.
 */
export function hubSizes(plan: HubPlan): number[] {
  const weights = Array.from({ length: plan.wikis }, (_, i) => 1 / (i + 1) ** plan.skew);
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => Math.max(1, Math.round(plan.chunks * w / sum)));
}

/**
 * The hub's figures on a loaded hub: `list_wikis` paged through (50 a page), a search of one
 * wiki (each query to a wiki drawn by its traffic share, the sizes' shares) and a search of
 * every wiki the hub's `search` covers without `wiki` (`HUB_SEARCH_WIKIS`), at each concurrency,
 * the per-wiki searches after one pass of them, the across-wikis search after its warm-up searches;
 * the first search of wikis nobody searched yet (their index is built then); this process's
 * resident memory after all of it, against the index cache's bound.
 */
export async function measureHub(
  deps: Deps,
  loaded: number[],
  queries: string[],
  concurrency: number[],
  limits: RunLimits & { calls: number },
  step: (text: string) => void = () => {},
  /** False: no searches of wikis drawn by size (`per_wiki_search` empty). */
  drawn = true,
): Promise<Omit<HubFigures, "load_seconds">> {
  const row = (l: Latency) => `p50 ${l.p50_ms} ms, ${l.calls_per_s}/s (c=${l.concurrency})`;
  const ids = loaded.map((_, i) => hubWikiId(i));
  const pages: (string | null)[] = [null];
  for (let cursor: string | null = null;;) {
    const out = await listPublicWikis(deps, { limit: 50, ...(cursor ? { cursor } : {}) });
    cursor = out.next_cursor;
    if (!cursor) break;
    pages.push(cursor);
  }
  const listWikisPage = await measureLatency(
    pages,
    (cursor) => listPublicWikis(deps, { limit: 50, ...(cursor ? { cursor } : {}) }),
    1,
    { warmup: 2 },
  );
  // Cold wikis first: the smallest third, never searched before this.
  const cold = ids.slice(-Math.min(40, Math.floor(ids.length / 3)));
  const coldFirst = await measureLatency(
    cold.map((id, n) => ({ id, q: queries[n % queries.length]! })),
    ({ id, q }) => searchWikis(deps, [id], { query: q, limit: 10 }),
    1,
    { warmup: 0 },
  );
  step(`hub: list_wikis ${row(listWikisPage)}; cold first search ${row(coldFirst)}`);
  const total = loaded.reduce((a, b) => a + b, 0);
  const pick = weightedPicker(loaded, total);
  const calls = queries.slice(0, limits.calls).map((q, n) => ({ id: ids[pick(n)]!, q }));
  // Warm: one pass of the same calls first. The drawn wikis hold more chunks than the index
  // cache: which of them it holds is what their searches decide (a wiki searched more often than
  // one it would drop is read), not a read of all of them in turn; the first search of a wiki
  // (its index read) is `cold_first_search`'s figure.
  if (drawn) {
    for (const { id, q } of calls) {
      await searchWikis(deps, [id], { query: q, limit: 10 });
    }
  }
  if (drawn) step(`hub: per-wiki searches warmed, ${lexicalCacheSize(deps.db).length} wikis held`);
  const perWiki = [];
  for (const c of drawn ? concurrency : []) {
    perWiki.push(
      await measureLatency(
        calls,
        ({ id, q }) => searchWikis(deps, [id], { query: q, limit: 10 }),
        c,
        limits,
      ),
    );
    step(`hub: per-wiki search ${row(perWiki.at(-1)!)}`);
  }
  const sorted = loaded.toSorted((a, b) => a - b);
  const median = loaded.indexOf(sorted[Math.floor(sorted.length / 2)]!);
  const oneWiki = async (id: string) => {
    const runs = [];
    const calls = queries.slice(0, limits.calls);
    await warmLexicalIndex(deps, [id]);
    for (const c of concurrency) {
      runs.push(
        await measureLatency(calls, (q) => searchWikis(deps, [id], { query: q, limit: 10 }), c, {
          ...limits,
        }),
      );
      step(`hub: ${id} alone ${row(runs.at(-1)!)}`);
    }
    return runs;
  };
  const largest = await oneWiki(ids[0]!);
  const medianWiki = await oneWiki(ids[median]!);
  const covered = await listPublicWikiIds(deps.db, HUB_SEARCH_WIKIS);
  // Not every covered wiki's index: a search across them reads only the wikis whose bound can
  // reach its best chunks (`prunedTopK`); its warm-up searches read those.
  const across = [];
  for (const c of concurrency) {
    across.push(
      await measureLatency(
        queries.slice(0, limits.calls),
        (q) => searchWikis(deps, covered, { query: q, limit: 10 }),
        c,
        limits,
      ),
    );
    step(`hub: across ${covered.length} wikis ${row(across.at(-1)!)}`);
  }
  const held = lexicalCacheSize(deps.db);
  return {
    wikis: ids.length,
    chunks: total,
    largest_wiki_chunks: sorted.at(-1) ?? 0,
    median_wiki_chunks: sorted[Math.floor(sorted.length / 2)] ?? 0,
    list_wikis_page: listWikisPage,
    per_wiki_search: perWiki,
    largest_wiki_search: largest,
    median_wiki_search: medianWiki,
    across_wikis_search: across,
    across_wikis_covered: covered.length,
    cold_first_search: coldFirst,
    rss_mib: round(Deno.memoryUsage().rss / 1024 / 1024),
    index_cache_mib_max: round(deps.config.searchIndexBytes / 1024 / 1024),
    index_cache_mib_held: round(held.reduce((a, e) => a + e.bytes, 0) / 1024 / 1024),
    index_cache_wikis_held: held.length,
  };
}

/** A deterministic draw of wiki indexes in proportion to their sizes. */
function weightedPicker(sizes: number[], total: number): (n: number) => number {
  const cumulative: number[] = [];
  let sum = 0;
  for (const size of sizes) cumulative.push(sum += size);
  return (n) => {
    // A fixed low-discrepancy sequence instead of Math.random: every run draws the same wikis.
    const x = ((n * 0.6180339887498949) % 1) * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

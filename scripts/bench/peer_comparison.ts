import type { Deps } from "../../src/deps.ts";
import { meanScores, round, scoreQuery } from "../../src/search/metrics.ts";
import { storesVectors } from "../../src/search/fusion.ts";
import { rankPages } from "../../src/search/search_wikis.ts";
import type { EvalQuery } from "./corpus.ts";
import { type Latency, measureLatency } from "./latency.ts";
import {
  createFts5Peer,
  createMiniSearchPeer,
  createOramaPeer,
  createTsRankIndex,
  type RankPaths,
  tsRankSearch,
} from "./peers.ts";

/** One engine's quality and latency over the queries. */
export type EngineFigures = {
  engine: string;
  ndcg_at_10: number;
  recall_at_10: number;
  mrr_at_10: number;
  latency: Latency;
  /** Its p50 latency over ours (hybrid on the same store); < 1 is faster than ours. */
  p50_vs_ours: number;
  /** Its nDCG@10 over ours. */
  ndcg_vs_ours: number;
};

/** The peer comparison: the engines, the corpus, how long building the peers took. */
export type PeerComparison = {
  store: string;
  wiki: string;
  chunks: number;
  queries: number;
  engines: EngineFigures[];
  build_s: {
    ts_rank_index: number;
    orama_index: number;
    fts5_index: number;
    minisearch_index: number;
  };
};

/**
 * Ours (`rankPages`, hybrid, as search runs it) beside a PostgreSQL `ts_rank` search and
 * Orama, on the same wiki's chunks and the same queries, one query at a time: nDCG@10,
 * Recall@10 and MRR@10, and latency of the ranking alone (no snippets, for every engine).
 */
export async function comparePeers(
  deps: Deps,
  wikiId: string,
  queries: EvalQuery[],
): Promise<PeerComparison> {
  let t = performance.now();
  await createTsRankIndex(deps.db, wikiId);
  const tsRankSeconds = (performance.now() - t) / 1000;
  const chunks = await deps.db<{ path: string; heading_text: string; text: string }>`
    SELECT p.path, c.heading_text, c.text FROM chunks c JOIN pages p ON p.id = c.page_id
    WHERE c.wiki_id = ${wikiId} ORDER BY c.id`;
  t = performance.now();
  const orama = await createOramaPeer(chunks, deps.embedder);
  const oramaSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  const fts5 = createFts5Peer(chunks);
  const fts5Seconds = (performance.now() - t) / 1000;
  t = performance.now();
  const minisearch = createMiniSearchPeer(chunks);
  const miniSearchSeconds = (performance.now() - t) / 1000;

  const engines: [string, RankPaths][] = [
    [
      storesVectors(deps.embedder)
        ? "ours: hybrid (BM25 + vector)"
        : "ours: hybrid (the lexical leg: the offline embedder has no vector leg)",
      async (q) => (await rankPages(deps, [wikiId], q, "hybrid")).map((r) => r.path),
    ],
    [
      "ours: lexical leg alone (BM25)",
      async (q) => (await rankPages(deps, [wikiId], q, "lexical")).map((r) => r.path),
    ],
    [
      "PostgreSQL ts_rank, websearch_to_tsquery (all terms)",
      tsRankSearch(deps.db, wikiId, "websearch"),
    ],
    ["PostgreSQL ts_rank, any term", tsRankSearch(deps.db, wikiId, "any")],
    ["Orama full-text (BM25)", orama.fulltext],
    ["Orama hybrid (BM25 + vector, our weights)", orama.hybrid],
    ["SQLite FTS5 bm25(), porter (node:sqlite, in memory)", fts5],
    ["MiniSearch BM25+ (in process, our stemmer)", minisearch],
  ];
  const figures: Omit<EngineFigures, "p50_vs_ours" | "ndcg_vs_ours">[] = [];
  for (const [engine, rank] of engines) {
    const ranked: string[][] = [];
    const latency = await measureLatency(
      queries.map((_, i) => i),
      async (i) => ranked[i] = await rank(queries[i]!.query),
      1,
      { warmup: 10 },
    );
    const quality = meanScores(queries.map((q, i) => scoreQuery(ranked[i]!, q.gold)));
    figures.push({
      engine,
      ndcg_at_10: quality["ndcg@10"]!,
      recall_at_10: quality["recall@10"]!,
      mrr_at_10: quality["mrr@10"]!,
      latency,
    });
  }
  const ours = figures[0]!;
  return {
    store: deps.db.kind,
    wiki: wikiId,
    chunks: chunks.length,
    queries: queries.length,
    engines: figures.map((f) => ({
      ...f,
      p50_vs_ours: round(f.latency.p50_ms / ours.latency.p50_ms),
      ndcg_vs_ours: round(f.ndcg_at_10 / ours.ndcg_at_10),
    })),
    build_s: {
      ts_rank_index: round(tsRankSeconds),
      orama_index: round(oramaSeconds),
      fts5_index: round(fts5Seconds),
      minisearch_index: round(miniSearchSeconds),
    },
  };
}

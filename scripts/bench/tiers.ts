import { askWikis } from "../../src/ask/ask.ts";
import type { Db } from "../../src/db/db.ts";
import type { Deps } from "../../src/deps.ts";
import { lexicalCacheSize, warmLexicalIndex } from "../../src/search/lexical_cache.ts";
import { round } from "../../src/search/metrics.ts";
import { EXACT_SCAN_LIMIT, searchWikis } from "../../src/search/search_wikis.ts";
import { ensureVectorIndex, vectorIndexName } from "../../src/search/vector_index.ts";
import type { Embedder } from "../../src/lib/embedder.ts";
import { storesVectors } from "../../src/search/fusion.ts";
import { type Latency, measureLatency, type RunLimits } from "./latency.ts";

/** Search and ask on one store at one size of the bench wiki. */
export type TierFigures = {
  store: string;
  chunks: number;
  pages: number;
  postings: number;
  vector_leg: "none" | "exact scan" | "HNSW";
  /** The in-process lexical index of the wiki: the time to read it (`first_search_ms`), its size. */
  lexical_index: {
    first_search_ms: number;
    bytes: number;
    postings: number;
    bytes_per_posting: number;
    rss_before_mib: number;
    rss_after_mib: number;
  };
  search: Latency[];
  ask: Latency;
};

/** How many calls each measurement makes at most, and for how long. */
export type TierLimits = {
  search: RunLimits & { calls: number };
  ask: RunLimits & { calls: number };
};

/**
 * `searchWikis` (what MCP `search` and REST search call: both legs, fusion, grouping and
 * snippets, 10 results) at each concurrency, then `askWikis` (extractive) one at a time.
 */
export async function measureTier(
  deps: Deps,
  wikiId: string,
  queries: string[],
  questions: string[],
  concurrencies: number[],
  limits: TierLimits,
): Promise<TierFigures> {
  const [size] = await deps.db<{ chunks: number; pages: number; postings: number }>`
    SELECT (SELECT count(*)::int FROM chunks WHERE wiki_id = ${wikiId}) AS chunks,
      (SELECT count(*)::int FROM pages WHERE wiki_id = ${wikiId}) AS pages,
      (SELECT count(*)::int FROM chunk_terms WHERE wiki_id = ${wikiId}) AS postings`;
  const rssBefore = Deno.memoryUsage().rss;
  const t = performance.now();
  await warmLexicalIndex(deps, [wikiId]);
  const firstSearchMs = performance.now() - t;
  const held = lexicalCacheSize(deps.db).find((w) => w.wiki === wikiId) ??
    { bytes: 0, postings: 0 };
  const lexical_index = {
    first_search_ms: round(firstSearchMs),
    bytes: held.bytes,
    postings: held.postings,
    bytes_per_posting: round(held.bytes / Math.max(1, held.postings)),
    rss_before_mib: round(rssBefore / 2 ** 20),
    rss_after_mib: round(Deno.memoryUsage().rss / 2 ** 20),
  };
  const search: Latency[] = [];
  for (const c of concurrencies) {
    search.push(
      await measureLatency(
        queries.slice(0, limits.search.calls),
        (q) => searchWikis(deps, [wikiId], { query: q, limit: 10 }),
        c,
        limits.search,
      ),
    );
  }
  const ask = await measureLatency(
    questions.slice(0, limits.ask.calls),
    (q) => askWikis(deps, [wikiId], { question: q }),
    1,
    limits.ask,
  );
  return {
    store: deps.db.kind,
    ...size!,
    vector_leg: !storesVectors(deps.embedder)
      ? "none"
      : size!.chunks > EXACT_SCAN_LIMIT
      ? "HNSW"
      : "exact scan",
    lexical_index,
    search,
    ask,
  };
}

/** Drops the embedder's HNSW index, so a bulk load does not maintain it row by row. */
export async function dropVectorIndex(db: Db, embedder: Embedder): Promise<void> {
  await db.exec(`DROP INDEX IF EXISTS ${vectorIndexName(embedder)}`);
}

/**
 * The HNSW index as the service creates it, built with `memory` of maintenance_work_mem: all
 * zeros for an embedder whose vectors are not stored (the offline one), which has none.
 */
export async function buildVectorIndex(
  db: Db,
  embedder: Embedder,
  memory: string,
): Promise<{ seconds: number; bytes: number; rows: number; distinct_vectors: number }> {
  if (!storesVectors(embedder)) return { seconds: 0, bytes: 0, rows: 0, distinct_vectors: 0 };
  const t = performance.now();
  await db.transaction(async (tx) => {
    await tx`SELECT set_config('maintenance_work_mem', ${memory}, true)`;
    await ensureVectorIndex(tx, embedder);
  });
  const seconds = (performance.now() - t) / 1000;
  // Equal texts have equal vectors, and pgvector stores equal vectors as one element.
  const [size] = await db.query<{ bytes: number; rows: number; distinct_vectors: number }>(
    `SELECT pg_relation_size('${vectorIndexName(embedder)}')::float8 AS bytes,
       count(*)::int AS rows,
       count(DISTINCT md5(heading_text || chr(10) || text))::int AS distinct_vectors
     FROM chunks WHERE embedder = $1`,
    [embedder.id],
  );
  return { seconds: round(seconds), ...size! };
}

/**
 * VACUUM (ANALYZE) of the whole database: what autovacuum leaves after a load (planner
 * statistics, the visibility map that index-only scans of the postings rely on), done now
 * so that the measurements do not depend on when it would have run.
 */
export async function vacuum(db: Db): Promise<void> {
  await db.exec("VACUUM (ANALYZE)");
}

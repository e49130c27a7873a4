import { type Db, makeDb, type Row } from "../../src/db/db.ts";
import type { Deps } from "../../src/deps.ts";
import { pathKey } from "../../src/markdown/paths.ts";
import { BM25, CANDIDATES, fuse, lexicalWeight } from "../../src/search/fusion.ts";
import { lexicalTopK } from "../../src/search/lexical_cache.ts";
import { quantile, round } from "../../src/search/metrics.ts";
import { EXACT_SCAN_LIMIT } from "../../src/search/search_wikis.ts";
import {
  countChunks,
  selectBm25,
  selectChunkDetails,
  selectChunkPages,
  selectExactTitleMatches,
  selectNearestExact,
  selectNearestIndexed,
} from "../../src/search/store.ts";

/** The steps of one search, in the order `searchWikis` takes them. */
const STEPS = [
  "embed_query",
  "lexical_leg",
  "vector_leg",
  "fuse",
  "chunk_pages",
  "exact_titles",
  "details_snippets",
] as const;

type Step = typeof STEPS[number];

/** Per step of a search: p50 and p95 in ms. */
export type StepProfile = Record<Step | "total", { p50_ms: number; p95_ms: number }>;

/**
 * Times each step of a search (the statements `searchWikis` runs, one after another, so
 * each gets its own clock; in production the two legs run side by side) over `queries`
 * with `concurrency` callers (no new query after `maxSeconds`), and reports p50/p95 per step,
 * and the queries whose lexical leg took the median and the 95th percentile time, for EXPLAIN.
 */
export async function profileSearch(
  deps: Deps,
  wikiIds: string[],
  queries: string[],
  concurrency: number,
  maxSeconds = Infinity,
): Promise<
  { calls: number; steps: StepProfile; medianLexicalQuery: string; slowLexicalQuery: string }
> {
  const deadline = performance.now() + maxSeconds * 1000;
  const times: Record<string, number[]> = Object.fromEntries(
    [...STEPS, "total"].map((s) => [s, []]),
  );
  const lexical: { query: string; ms: number }[] = [];
  let next = 0;
  const caller = async () => {
    while (next < queries.length && performance.now() < deadline) {
      const query = queries[next++]!;
      const t: number[] = [performance.now()];
      const tick = () => t.push(performance.now());
      const [vector] = await deps.embedder.embed([query]) as [Float32Array];
      tick();
      const lexicalHits = await lexicalTopK(deps, wikiIds, query, BM25, CANDIDATES);
      tick();
      const vectorHits = await countChunks(deps.db, wikiIds) <= EXACT_SCAN_LIMIT
        ? await selectNearestExact(deps.db, wikiIds, deps.embedder.id, vector, CANDIDATES)
        : await selectNearestIndexed(
          deps.db,
          deps.embedder,
          wikiIds,
          deps.embedder.id,
          vector,
          CANDIDATES,
        );
      tick();
      const fused = fuse(lexicalHits, vectorHits, lexicalWeight(deps.embedder));
      tick();
      const pages = await selectChunkPages(deps.db, fused.map((h) => h.chunk_id));
      tick();
      await selectExactTitleMatches(deps.db, wikiIds, query, pathKey(query));
      tick();
      const best = new Map<number, number>();
      for (const h of fused) {
        const page = pages.find((p) => p.chunk_id === h.chunk_id);
        if (page && !best.has(page.page_id)) best.set(page.page_id, h.chunk_id);
      }
      await selectChunkDetails(deps.db, [...best.values()].slice(0, 10));
      tick();
      STEPS.forEach((s, i) => times[s]!.push(t[i + 1]! - t[i]!));
      times.total!.push(t.at(-1)! - t[0]!);
      lexical.push({ query, ms: t[2]! - t[1]! });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  const steps = Object.fromEntries(
    Object.entries(times).map((
      [s, v],
    ) => [s, { p50_ms: round(quantile(v, 0.5)), p95_ms: round(quantile(v, 0.95)) }]),
  ) as StepProfile;
  lexical.sort((a, b) => a.ms - b.ms);
  return {
    calls: lexical.length,
    steps,
    medianLexicalQuery: lexical[Math.floor(lexical.length / 2)]!.query,
    slowLexicalQuery: lexical[Math.floor(lexical.length * 0.95)]!.query,
  };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements both legs run for `query`: the production
 * functions are called with a recording `Db`, and their SQL is replayed in a transaction
 * whose last statement is explained (the vector leg's `set_config` runs first, as it does).
 */
export async function explainLegs(
  deps: Deps,
  wikiIds: string[],
  query: string,
): Promise<{ lexical: string; vector: string }> {
  const [vector] = await deps.embedder.embed([query]) as [Float32Array];
  const indexed = await countChunks(deps.db, wikiIds) > EXACT_SCAN_LIMIT;
  const lexical = await explainLast(
    deps.db,
    await record((db) => selectBm25(db, wikiIds, query, BM25, CANDIDATES)),
  );
  const vectorPlan = await explainLast(
    deps.db,
    await record((db) =>
      indexed
        ? selectNearestIndexed(db, deps.embedder, wikiIds, deps.embedder.id, vector, CANDIDATES)
        : selectNearestExact(db, wikiIds, deps.embedder.id, vector, CANDIDATES)
    ),
  );
  return { lexical, vector: vectorPlan };
}

type Statement = { text: string; params: unknown[] };

/** The statements `fn` sends, from a `Db` that records them and answers with no rows. */
async function record(fn: (db: Db) => Promise<unknown>): Promise<Statement[]> {
  const statements: Statement[] = [];
  const recorder = makeDb({
    kind: "postgres",
    inTransaction: false,
    query: (text: string, params: unknown[]) => {
      statements.push({ text, params });
      return Promise.resolve([] as Row[]);
    },
    exec: () => Promise.resolve(),
    transaction(inner) {
      return inner({ ...this, inTransaction: true });
    },
    close: () => Promise.resolve(),
  });
  await fn(recorder);
  return statements;
}

async function explainLast(db: Db, statements: Statement[]): Promise<string> {
  return await db.transaction(async (tx) => {
    for (const s of statements.slice(0, -1)) await tx.query(s.text, s.params);
    const last = statements.at(-1)!;
    const rows = await tx.query<Row>(`EXPLAIN (ANALYZE, BUFFERS) ${last.text}`, last.params);
    // A query vector is a thousand numbers: elided from the plan.
    return rows.map((r) => String(Object.values(r)[0]).replace(/'\[[^\]]{100,}\]'/g, "'[…]'"))
      .join("\n");
  });
}

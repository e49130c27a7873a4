import { AsyncLocalStorage } from "node:async_hooks";
import { type Db, type Driver, makeDb, type Row } from "../../src/db/db.ts";
import type { Deps } from "../../src/deps.ts";
import { BM25, CANDIDATES } from "../../src/search/fusion.ts";
import { warmLexicalIndex } from "../../src/search/lexical_cache.ts";
import { quantile, round } from "../../src/search/metrics.ts";
import { EXACT_SCAN_LIMIT, searchWikis } from "../../src/search/search_wikis.ts";
import {
  countChunks,
  selectBm25,
  selectNearestExact,
  selectNearestIndexed,
} from "../../src/search/store.ts";

/** A statement's step in a search, by what it reads. */
const STEPS: [string, RegExp][] = [
  ["lexical_stats", /FROM search_stats s\b/],
  ["wiki_check", /FROM wikis/],
  ["candidates", /UNION ALL/],
  ["chunk_details", /c\.heading_path, c\.anchor, c\.text/],
  ["chunk_pages", /SELECT c\.id AS chunk_id, c\.page_id, p\.path/],
  ["exact_titles", /path_key/],
  ["first_chunks", /DISTINCT ON \(page_id\)/],
  ["freshness", /git_sources/],
];

/** Per step of a search: p50 and p95 in ms (over the searches that ran it), runs per search. */
export type StepProfile = Record<string, { p50_ms: number; p95_ms: number; per_search?: number }>;

/**
 * Times `searchWikis` (limit 10) over `queries` with `concurrency` callers (no new query after
 * `maxSeconds`): each statement it sends, by step (`STEPS`, clocked from send to rows in hand,
 * so a wait for a pooled connection counts), the rest of its time (`in_process`: the in-memory
 * lexical leg, re-scoring, grouping, snippets, and waiting for the CPU), and the total. The
 * statements of concurrent searches are told apart with AsyncLocalStorage. Also the queries
 * whose total took the median and the 95th percentile time, for EXPLAIN.
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
  const current = new AsyncLocalStorage<Map<string, number[]>>();
  const db = timedDb(deps.db, (text, ms) => {
    const label = STEPS.find(([, re]) => re.test(text))?.[0] ?? text.trim().slice(0, 40);
    const mine = current.getStore();
    if (!mine) return;
    mine.set(label, [...mine.get(label) ?? [], ms]);
  });
  const timed = { ...deps, db };
  await warmLexicalIndex(timed, wikiIds);
  const deadline = performance.now() + maxSeconds * 1000;
  const searches: { query: string; total: number; steps: Map<string, number[]> }[] = [];
  let next = 0;
  const caller = async () => {
    while (next < queries.length && performance.now() < deadline) {
      const query = queries[next++]!;
      const steps = new Map<string, number[]>();
      const t = performance.now();
      await current.run(steps, () => searchWikis(timed, wikiIds, { query, limit: 10 }));
      searches.push({ query, total: performance.now() - t, steps });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  const labels = [...new Set(searches.flatMap((s) => [...s.steps.keys()]))];
  const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
  const figures = (v: number[]) => ({
    p50_ms: round(quantile(v, 0.5)),
    p95_ms: round(quantile(v, 0.95)),
  });
  const steps: StepProfile = {};
  for (const label of labels) {
    const runs = searches.map((s) => s.steps.get(label) ?? []);
    steps[label] = {
      ...figures(runs.filter((r) => r.length > 0).map(sum)),
      per_search: round(sum(runs.map((r) => r.length)) / searches.length),
    };
  }
  steps.in_process = figures(
    searches.map((s) => s.total - sum([...s.steps.values()].flatMap((v) => v))),
  );
  steps.total = figures(searches.map((s) => s.total));
  searches.sort((a, b) => a.total - b.total);
  return {
    calls: searches.length,
    steps,
    medianLexicalQuery: searches[Math.floor(searches.length / 2)]!.query,
    slowLexicalQuery: searches[Math.floor(searches.length * 0.95)]!.query,
  };
}

/** `db` with each statement outside a transaction reported to `onStatement` with its time. */
function timedDb(db: Db, onStatement: (text: string, ms: number) => void): Db {
  return makeDb({
    kind: db.kind,
    inTransaction: false,
    query: async (text: string, params: unknown[]) => {
      const t = performance.now();
      const rows = await db.query<Row>(text, params);
      onStatement(text, performance.now() - t);
      return rows;
    },
    exec: (text: string) => db.exec(text),
    transaction: (inner) => db.transaction((tx) => inner(driverOf(tx))),
    close: () => Promise.resolve(),
  });
}

function driverOf(tx: Db): Driver {
  return {
    kind: tx.kind,
    inTransaction: true,
    query: (text: string, params: unknown[]) => tx.query<Row>(text, params),
    exec: (text: string) => tx.exec(text),
    transaction<T>(inner: (d: Driver) => Promise<T>): Promise<T> {
      return inner(this);
    },
    close: () => Promise.resolve(),
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

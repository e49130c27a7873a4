/**
 * `deno task bench [--quick] [--out file.json] [--no-postgres] [--no-pglite] [--pglite-large]
 * [--private-postgres] [--search-only] [--no-versions] [--no-hub] [--hub-wikis N] [--hub-chunks N]
 * [--hub-db NAME]`: the benchmark suite, end to end, on PGlite and on PostgreSQL
 * (DATABASE_URL, else what scripts/setup_postgres.sh starts; `--private-postgres`: a server
 * of its own, for machines where other work restarts the shared one). Imports SQuAD and
 * SciFact (ingestion), compares our search with PostgreSQL `ts_rank` and Orama on SciFact,
 * grows a wiki to ~10k and ~100k chunks (scripts/bench/bulk_load.ts) and measures search at
 * concurrency 1, 8 and 32, ask, MCP against the direct call, the HNSW index, where the time
 * of a search goes, and the memory of the real server. Prints every table and writes them as
 * JSON to docs/bench/results.json (bench/out/quick.json with --quick); docs/performance.md
 * quotes them. `--search-only` skips ingestion and peers: the bench wiki's sizes, the profile
 * and the server's memory. Last, the scale tier (scripts/bench/scale_tier.ts, issue 33) on
 * PostgreSQL: a hub of `--hub-wikis` (1,000) public wikis of `--hub-chunks` (1M; 20k with
 * `--quick`) chunks on a primary with a streaming replica of its own, the replica's searches/s
 * at c = 8 against the primary's, and MCP against the direct call on the hub's largest wiki;
 * `--no-hub` skips it; `--hub-db NAME` keeps the hub in database NAME and measures the hub an
 * earlier run (or `deno task bench:scale --db NAME --keep --load-only`) left there instead of
 * loading it again, so that one run can report every figure without the 20 minutes or more a 1M-chunk load
 * takes; `--no-versions` skips the versions' figures.
 */
import { parseArgs } from "node:util";
import type { Deps } from "../../src/deps.ts";
import { round } from "../../src/search/metrics.ts";
import { createWiki } from "../../src/wikis/wikis.ts";
import { bulkLoadPages } from "./bulk_load.ts";
import { asSources, BENCH_WIKI, type EvalPage, replicaPages } from "./corpus.ts";
import { measureImport } from "./ingest.ts";
import { describeMachine } from "./machine.ts";
import { measureMcpOverhead } from "./mcp_overhead.ts";
import { measureScale, scaleSummary } from "./scale_tier.ts";
import { comparePeers } from "./peer_comparison.ts";
import { explainLegs, profileSearch } from "./profile.ts";
import { countPostingMismatches, withoutPostingKeys } from "./postings.ts";
import { printReport } from "./report.ts";
import { benchQueries, benchSetup } from "./setup.ts";
import { measureServerMemory } from "./server_memory.ts";
import { benchVersions, versionsReport } from "./versions.ts";
import {
  type BenchStore,
  findPostgres,
  openBenchPglite,
  openBenchPostgres,
  startPrivatePostgres,
} from "./stores.ts";
import {
  buildVectorIndex,
  dropVectorIndex,
  measureTier,
  type TierLimits,
  vacuum,
} from "./tiers.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    quick: { type: "boolean", default: false },
    out: { type: "string" },
    "no-postgres": { type: "boolean", default: false },
    "no-pglite": { type: "boolean", default: false },
    "pglite-large": { type: "boolean", default: false },
    "private-postgres": { type: "boolean", default: false },
    "search-only": { type: "boolean", default: false },
    "no-versions": { type: "boolean", default: false },
    "no-hub": { type: "boolean", default: false },
    "hub-db": { type: "string" },
    "hub-wikis": { type: "string", default: "1000" },
    "hub-chunks": { type: "string" },
  },
});
const quick = values.quick;
const plan = quick
  ? {
    importPages: 150,
    basePages: 500,
    sizes: [1_000, 2_500],
    queries: 60,
    peerQueries: 60,
    search: { calls: 40, maxSeconds: 10, warmup: 3 },
    ask: { calls: 10, maxSeconds: 10, warmup: 2 },
    mcpQueries: 100,
    profileQueries: 20,
    profileSeconds: 5,
    loadSeconds: 4,
  }
  : {
    importPages: Infinity,
    basePages: Infinity,
    sizes: [10_000, 100_000],
    queries: 400,
    peerQueries: Infinity,
    search: { calls: 400, maxSeconds: 8, warmup: 10 },
    ask: { calls: 100, maxSeconds: 5, warmup: 3 },
    mcpQueries: 200,
    profileQueries: 150,
    profileSeconds: 6,
    loadSeconds: 8,
  };
const CONCURRENCY = [1, 8, 32];
const outFile = values.out ??
  new URL(quick ? "../../bench/out/quick.json" : "../../docs/bench/results.json", import.meta.url)
    .pathname;

const runStarted = performance.now();
const elapsed = () => `${((performance.now() - runStarted) / 1000).toFixed(0)} s`;
const step = (text: string) => console.error(`[${elapsed()}] ${text}`);

const setup = await benchSetup();
const { env, config, embedder, log, sets } = setup;

const stores: BenchStore[] = [];
let postgresServer: string;
/** The PostgreSQL server's URL, for the steps that make throwaway databases on it. */
let postgresUrl: string | undefined;
let privatePostgres: Awaited<ReturnType<typeof startPrivatePostgres>> | null = null;
if (values["no-postgres"]) postgresServer = "skipped: --no-postgres";
else {
  const found = await findPostgres(env);
  if ("reason" in found) {
    postgresServer = `skipped: ${found.reason}`;
    console.error(`PostgreSQL half ${postgresServer}`);
  } else if (values["private-postgres"]) {
    privatePostgres = await startPrivatePostgres();
    postgresUrl = privatePostgres.url;
    postgresServer = "private: a new cluster (initdb, default settings) in a temporary directory";
    stores.push(await openBenchPostgres(privatePostgres.url));
  } else {
    postgresServer = env.DATABASE_URL ? "DATABASE_URL" : "scripts/setup_postgres.sh";
    postgresUrl = found.url;
    stores.push(await openBenchPostgres(found.url));
  }
}
if (!values["no-pglite"]) stores.push(await openBenchPglite());
if (stores.length === 0) throw new Error("No store to measure");
const depsOf = (s: BenchStore): Deps => ({ config, db: s.db, log, embedder });
const pg = stores.find((s) => s.name === "postgres");
const lite = stores.find((s) => s.name === "pglite");

try {
  const machine = await describeMachine({ pglite: lite?.db, postgres: pg?.db });
  step(`machine: ${machine.cpu}, ${machine.cores} cores; stores: ${stores.map((s) => s.name)}`);

  // 1. Ingestion: the import path, page by page, with the HNSW index in place (as served).
  const ingestion = [];
  const searchOnly = values["search-only"];
  for (const store of searchOnly ? [] : stores) {
    for (const set of ["squad", "scifact"] as const) {
      const figures = await measureImport(
        depsOf(store),
        set,
        sets[set].pages.slice(0, plan.importPages),
      );
      ingestion.push({ store: store.name, ...figures });
      step(`imported ${set} into ${store.name}: ${figures.pages_per_s.toFixed(1)} pages/s`);
    }
  }

  for (const store of stores) await vacuum(store.db);

  // 2. Peers on SciFact: quality and latency against ts_rank and Orama, on PostgreSQL when
  // it is there (where a wiki's built-in full-text search runs), and ours on PGlite too.
  const peerStore = pg ?? lite!;
  const scifactQueries = sets.scifact.queries.slice(0, plan.peerQueries);
  const peers = searchOnly
    ? null
    : await comparePeers(depsOf(peerStore), "scifact", scifactQueries);
  if (peers) step(`peers compared on ${peerStore.name}`);

  // 3. The bench wiki at each size: base pages of both sets, then distinct copies of them.
  // PGlite stops at the first size unless --pglite-large (see docs/performance.md).
  const base: EvalPage[] = [
    ...sets.squad.pages.slice(0, plan.basePages).map((p) => ({ ...p, path: `squad/${p.path}` })),
    ...sets.scifact.pages.slice(0, plan.basePages)
      .map((p) => ({ ...p, path: `scifact/${p.path}` })),
  ];
  const queries = benchQueries(sets, plan.queries);
  const questions = sets.squad.queries.filter((q) => q.answers?.length).map((q) => q.query);
  const limits: TierLimits = { search: plan.search, ask: plan.ask };
  for (const store of stores) {
    await createWiki(store.db, { id: "bench", visibility: "public" });
    // Rebuilt after the bulk load: row-by-row upkeep would dominate it.
    await dropVectorIndex(store.db, embedder);
  }
  const tiers = [];
  const mcp = [];
  const vectorIndexes = [];
  const largest = new Map<BenchStore, number>();
  let sourced = 0;
  let chunks = 0;
  for (const [n, size] of plan.sizes.entries()) {
    const last = n === plan.sizes.length - 1;
    const growing = stores.filter((s) =>
      n === 0 || s.name === "postgres" || values["pglite-large"]
    );
    // PGlite alone stops at the first size unless --pglite-large.
    if (growing.length === 0) break;
    const t = performance.now();
    const need = size - chunks;
    const sources = [
      ...asSources(base.slice(sourced, sourced + need)),
      ...replicaPages(base, Math.max(0, sourced - base.length), sourced - base.length + need),
    ];
    const [first, ...rest] = growing.map(depsOf);
    const loaded = await withoutPostingKeysOn(
      growing,
      () =>
        bulkLoadPages(first!, "bench", sources, {
          maxChunks: need,
          alsoInto: rest.map((d) => d.db),
        }),
    );
    sourced += loaded.pages;
    chunks += loaded.chunks;
    for (const s of growing) {
      const wrong = await countPostingMismatches(s.db, "bench", 500);
      if (wrong > 0) throw new Error(`${wrong} postings of copies differ from an import's`);
      await vacuum(s.db);
    }
    const bulkSeconds = round((performance.now() - t) / 1000);
    step(
      `bench wiki at ${chunks} chunks on ${growing.map((s) => s.name)} (${bulkSeconds} s, ` +
        `${loaded.copied} of ${loaded.pages} pages with copied postings)`,
    );
    if (last) {
      // The largest size is searched through HNSW: build the index on every store at once.
      const built = await Promise.all(stores.map(async (s) => {
        const memory = s.name === "postgres" ? "1GB" : "512MB";
        const b = await buildVectorIndex(s.db, embedder, memory);
        return {
          store: s.name,
          maintenance_work_mem: memory,
          ...b,
          bytes_per_vector: round(b.bytes / b.distinct_vectors),
          gib_per_million_vectors: round(b.bytes / b.distinct_vectors * 1e6 / 2 ** 30),
        };
      }));
      vectorIndexes.push(...built);
      step(`HNSW built: ${built.map((b) => `${b.store} ${b.seconds} s`).join(", ")}`);
    }
    for (const store of growing) {
      const deps = depsOf(store);
      const tier = await measureTier(deps, "bench", queries, questions, CONCURRENCY, limits);
      tiers.push({ ...tier, bulk_load_s: bulkSeconds });
      largest.set(store, tier.chunks);
      step(`measured ${store.name} at ${tier.chunks} chunks`);
      if (n === 0) {
        const overhead = await measureMcpOverhead(
          deps,
          "bench",
          queries.slice(0, plan.mcpQueries),
          { warmup: 5 },
        );
        mcp.push({ chunks: tier.chunks, ...overhead });
        step(
          `MCP against direct on ${store.name}: p50 ratio ${overhead.ratio_p50} (SDK client), ` +
            `${overhead.ratio_plain_p50} (plain client), ${overhead.ratio_apart_p50} ` +
            `(plain client in its own worker); the server's own time ${overhead.ratio_server_p50} ` +
            `(${overhead.server_p50_ms} ms), HTTP alone ${overhead.http_floor_p50_ms} ms; the SDK ` +
            `client's own time ${overhead.sdk_client_own_ms} ms, SDK client with it taken out ` +
            `${overhead.ratio_sdk_own_out_p50}`,
        );
      }
    }
  }

  // 4. Where the time of a search goes, on each store at its largest size.
  const profiles = [];
  for (const store of stores) {
    const deps = depsOf(store);
    const profileQueries = queries.slice(0, plan.profileQueries);
    const c1 = await profileSearch(deps, ["bench"], profileQueries, 1, plan.profileSeconds);
    const c8 = await profileSearch(deps, ["bench"], profileQueries, 8, plan.profileSeconds);
    profiles.push({
      store: store.name,
      chunks: largest.get(store)!,
      calls_c1: c1.calls,
      calls_c8: c8.calls,
      steps_c1: c1.steps,
      steps_c8: c8.steps,
      explain_median_query: {
        query: c1.medianLexicalQuery,
        ...await explainLegs(deps, ["bench"], c1.medianLexicalQuery),
      },
      explain_slow_query: {
        query: c1.slowLexicalQuery,
        ...await explainLegs(deps, ["bench"], c1.slowLexicalQuery),
      },
    });
    step(`profiled ${store.name}`);
  }

  // 5. The real server's memory, idle and under MCP load, on each store's bench wiki.
  const memory = [];
  for (const store of stores) {
    const serverEnv: Record<string, string> = store.url
      ? { DATABASE_URL: store.url }
      : { DATA_DIR: store.dataDir! };
    await store.close(); // PGlite: one process at a time may open DATA_DIR
    memory.push({
      chunks: largest.get(store)!,
      ...await measureServerMemory(
        { name: store.name, env: serverEnv },
        "bench",
        queries,
        32,
        plan.loadSeconds,
      ),
    });
    step(`server memory on ${store.name}`);
  }

  // Versions of a space: search in a version against the live pages at the largest size, and
  // the index bytes one and ten versions add at 10k chunks (synthetic wikis of their own, in
  // throwaway databases on each store's server).
  const versionsPlan = quick
    ? { searchChunks: 2_500, memoryChunks: 1_000, queries: 60 }
    : { searchChunks: 100_000, memoryChunks: 10_000, queries: 200 };
  const versions = [];
  for (const store of values["no-versions"] ? [] : stores) {
    const databaseUrl = store.name === "postgres" ? postgresUrl : undefined;
    versions.push(await benchVersions({ name: store.name, databaseUrl }, versionsPlan, step));
  }

  // 6. Past one machine: the hub of 1,000 wikis, a replica, MCP on the hub's largest wiki.
  const scale = values["no-hub"] || !pg ? null : await measureScale(setup, allPages(), queries, {
    plan: {
      wikis: Number(values["hub-wikis"]),
      chunks: Number(values["hub-chunks"] ?? (quick ? 20_000 : 1_000_000)),
      skew: 1.1,
    },
    calls: quick ? 60 : 300,
    replica: true,
    step,
    database: values["hub-db"] ? { name: values["hub-db"], reuse: true, keep: true } : undefined,
  });

  const results = {
    measured_at: new Date().toISOString(),
    command: ["deno task bench", ...Deno.args].join(" "),
    quick,
    duration_s: round((performance.now() - runStarted) / 1000),
    machine: { ...machine, load_average_at_end: Deno.loadavg() },
    embedder: embedder.id,
    postgres_server: postgresServer,
    corpus: {
      sets: { squad: sets.squad.pages.length, scifact: sets.scifact.pages.length },
      bench_wiki: BENCH_WIKI,
      queries: "SciFact claims and SQuAD questions, interleaved",
    },
    ingestion,
    peers,
    tiers,
    mcp,
    vector_index: vectorIndexes,
    profiles,
    memory,
    versions,
    scale,
  };
  await Deno.mkdir(outFile.slice(0, outFile.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(outFile, JSON.stringify(results, null, 2) + "\n");
  printReport(results);
  console.log(`\n${versionsReport(versions)}`);
  if (scale) console.log(["", "## Past one machine (issue 33)", ...scaleSummary(scale)].join("\n"));
  console.log(`\nWritten to ${outFile} in ${elapsed()}`);
} finally {
  for (const store of stores) {
    await store.drop().catch((e) => console.error(`Could not drop the ${store.name} store: ${e}`));
  }
  await privatePostgres?.stop();
}

/** Every eval page, under its set's folder: what the hub's wikis are copied from. */
function allPages(): EvalPage[] {
  return [
    ...sets.squad.pages.map((p) => ({ ...p, path: `squad/${p.path}` })),
    ...sets.scifact.pages.map((p) => ({ ...p, path: `scifact/${p.path}` })),
  ];
}

/** Runs `fn` with the postings keys of every store dropped, then rebuilt. */
function withoutPostingKeysOn<T>(stores: BenchStore[], fn: () => Promise<T>): Promise<T> {
  return stores.reduce(
    (inner, s) => () => withoutPostingKeys(s.db, s.name === "postgres" ? "1GB" : "512MB", inner),
    fn,
  )();
}

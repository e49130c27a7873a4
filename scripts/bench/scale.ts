/**
 * `deno task bench:scale [--hub-wikis 1000] [--hub-chunks 1000000] [--calls 300] [--no-replica]
 * [--no-pglite] [--out file.json]`: past one machine. On a primary and a streaming replica of
 * their own (scripts/setup_replica.sh; `--no-replica`: DATABASE_URL's server, no replica):
 * a hub of `--hub-wikis` public wikis holding `--hub-chunks` chunks in all, sizes skewed as hubs
 * are (scripts/bench/hub_tier.ts), with `list_wikis` paging, per-wiki search and search across
 * the wikis the hub's `search` covers at c = 1 and c = 8, the first search of cold wikis and this
 * process's memory; searches/s at c = 8 on the primary alone against primary + replica (on one
 * machine both share its cores); MCP `search` against the direct call on PostgreSQL (the largest
 * hub wiki) and PGlite (the eval pages). Writes docs/bench/scale.json (or `--out`).
 */
import { parseArgs } from "node:util";
import type { Db } from "../../src/db/db.ts";
import { openPostgres } from "../../src/db/postgres.ts";
import type { Deps } from "../../src/deps.ts";
import { round } from "../../src/search/metrics.ts";
import { searchWikis } from "../../src/search/search_wikis.ts";
import { createWiki } from "../../src/wikis/wikis.ts";
import { bulkLoadPages } from "./bulk_load.ts";
import { asSources, type EvalPage } from "./corpus.ts";
import { hubWikiId, loadHub, measureHub } from "./hub_tier.ts";
import { type Latency, measureLatency } from "./latency.ts";
import { describeMachine } from "./machine.ts";
import { measureMcpOverhead } from "./mcp_overhead.ts";
import { benchQueries, benchSetup } from "./setup.ts";
import { findPostgres, openBenchPglite, openBenchPostgres } from "./stores.ts";
import { dropVectorIndex, vacuum } from "./tiers.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    "hub-wikis": { type: "string", default: "1000" },
    "hub-chunks": { type: "string", default: "1000000" },
    calls: { type: "string", default: "300" },
    "no-replica": { type: "boolean", default: false },
    "no-pglite": { type: "boolean", default: false },
    out: { type: "string" },
  },
});
const plan = {
  wikis: Number(values["hub-wikis"]),
  chunks: Number(values["hub-chunks"]),
  skew: 1.1,
};
const calls = Number(values.calls);
const limits = { calls, maxSeconds: 10, warmup: 10 };
const outFile = values.out ?? new URL("../../docs/bench/scale.json", import.meta.url).pathname;
const started = performance.now();
const step = (text: string) =>
  console.error(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${text}`);

const { env, config, embedder, log, sets } = await benchSetup();
const queries = benchQueries(sets, Math.max(calls, 400));
const base: EvalPage[] = [
  ...sets.squad.pages.map((p) => ({ ...p, path: `squad/${p.path}` })),
  ...sets.scifact.pages.map((p) => ({ ...p, path: `scifact/${p.path}` })),
];

const servers = await primaryAndReplica();
const store = await openBenchPostgres(servers.primary);
const replicaUrl = servers.replica ? sameDatabase(servers.replica, store.url!) : null;
// A loaded machine may take more than the service's 5 s to open a connection.
const benchDb = openPostgres(store.url!, { connectTimeoutSeconds: 60 });
const deps: Deps = { config, db: benchDb, log, embedder };
let replica: Db | null = null;
try {
  const machine = await describeMachine({ postgres: benchDb });
  step(`machine: ${machine.cpu}, ${machine.cores} cores; hub ${plan.wikis} wikis, ${plan.chunks}`);
  await dropVectorIndex(benchDb, embedder);
  const t = performance.now();
  const loaded = await loadHub(deps, base, plan, step);
  await vacuum(benchDb);
  const loadSeconds = round((performance.now() - t) / 1000);
  step(`hub loaded in ${loadSeconds} s`);

  const hub = {
    ...await measureHub(deps, loaded, queries, [1, 8], limits),
    load_seconds: loadSeconds,
  };
  step(`hub measured: per-wiki c=8 ${hub.per_wiki_search[1]!.calls_per_s}/s`);

  let replicaRatio = null;
  if (replicaUrl) {
    replica = openPostgres(replicaUrl, { connectTimeoutSeconds: 60 });
    await caughtUp(benchDb, replica);
    replicaRatio = await compareReplica(deps, replica, loaded, queries.slice(0, calls));
    step(
      `c=8: primary ${replicaRatio.primary.calls_per_s}/s, + replica ${replicaRatio.with_replica.calls_per_s}/s`,
    );
  }

  const mcpPostgres = await measureMcpOverhead(deps, hubWikiId(0), queries.slice(0, 200));
  step(`MCP/direct on PostgreSQL: ${mcpPostgres.ratio_p50}`);
  const mcpPglite = values["no-pglite"] ? null : await pgliteMcp();
  if (mcpPglite) step(`MCP/direct on PGlite: ${mcpPglite.ratio_p50}`);

  const results = {
    command: `deno task bench:scale ${Deno.args.join(" ")}`.trim(),
    machine,
    servers: replicaUrl
      ? "a primary and a streaming replica of its own (scripts/setup_replica.sh), one machine"
      : "DATABASE_URL's server, no replica",
    plan,
    hub,
    replica: replicaRatio,
    mcp: { postgres: mcpPostgres, pglite: mcpPglite },
  };
  await Deno.mkdir(new URL(".", `file://${outFile}`), { recursive: true });
  await Deno.writeTextFile(outFile, JSON.stringify(results, null, 2) + "\n");
  printSummary(results);
} finally {
  await replica?.close();
  await benchDb.close();
  await store.drop();
}

/** The primary (and the replica) to load: scripts/setup_replica.sh's, or DATABASE_URL's. */
async function primaryAndReplica(): Promise<{ primary: string; replica: string | null }> {
  if (!values["no-replica"]) {
    const out = await new Deno.Command("bash", {
      args: [new URL("../setup_replica.sh", import.meta.url).pathname],
      env: { PGDATABASE_NAME: "wiki_replica_base" },
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (out.code === 0) {
      const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
      return { primary: lines.at(-2)!, replica: lines.at(-1)! };
    }
    step("no replica: scripts/setup_replica.sh failed (it needs root and PostgreSQL 15)");
  }
  const found = await findPostgres(env);
  if ("reason" in found) throw new Error(`No PostgreSQL: ${found.reason}`);
  return { primary: found.url, replica: null };
}

function sameDatabase(server: string, like: string): string {
  const url = new URL(server);
  url.pathname = new URL(like).pathname;
  return url.toString();
}

/** Waits until the replica has replayed everything the primary has written so far. */
async function caughtUp(primary: Db, replica: Db): Promise<void> {
  const [{ lsn }] = await primary<{ lsn: string }>`SELECT pg_current_wal_lsn()::text AS lsn` as [
    { lsn: string },
  ];
  for (let i = 0; i < 600; i++) {
    const [row] = await replica<{ past: boolean }>`
      SELECT pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn AS past`;
    if (row!.past) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("The replica did not catch up in 5 minutes");
}

/**
 * Per-wiki searches at c = 8 on the primary alone, then with every other search's reads on the
 * replica (`reads`, as a process with DATABASE_REPLICA_URLS gives them): the same calls.
 */
async function compareReplica(
  deps: Deps,
  replica: Db,
  loaded: number[],
  queries: string[],
): Promise<{ primary: Latency; with_replica: Latency; ratio: number }> {
  const ids = loaded.map((_, i) => hubWikiId(i)).slice(0, 50);
  const calls = queries.map((q, n) => ({ id: ids[n % ids.length]!, q, n }));
  const onReplica: Deps = { ...deps, reads: Object.assign(replica, { home: deps.db }) as Db };
  const primary = await measureLatency(
    calls,
    ({ id, q }) => searchWikis(deps, [id], { query: q, limit: 10 }),
    8,
    limits,
  );
  const withReplica = await measureLatency(
    calls,
    ({ id, q, n }) => searchWikis(n % 2 ? onReplica : deps, [id], { query: q, limit: 10 }),
    8,
    limits,
  );
  return {
    primary,
    with_replica: withReplica,
    ratio: round(withReplica.calls_per_s / primary.calls_per_s),
  };
}

/** MCP against the direct call on PGlite, on the eval pages in one public wiki. */
async function pgliteMcp() {
  const lite = await openBenchPglite();
  try {
    const liteDeps: Deps = { config, db: lite.db, log, embedder };
    await createWiki(lite.db, { id: "squad", visibility: "public" });
    await bulkLoadPages(liteDeps, "squad", asSources(base.slice(0, 2000)));
    return await measureMcpOverhead(liteDeps, "squad", queries.slice(0, 200));
  } finally {
    await lite.drop();
  }
}

// deno-lint-ignore no-explicit-any
function printSummary(r: any): void {
  const row = (l: Latency) => `p50 ${l.p50_ms} ms, p95 ${l.p95_ms} ms, ${l.calls_per_s}/s`;
  console.log(
    `Hub: ${r.hub.wikis} wikis, ${r.hub.chunks} chunks (largest ${r.hub.largest_wiki_chunks}, median ${r.hub.median_wiki_chunks}), loaded in ${r.hub.load_seconds} s`,
  );
  console.log(`  list_wikis page of 50: ${row(r.hub.list_wikis_page)}`);
  console.log(
    `  per-wiki search c=1: ${row(r.hub.per_wiki_search[0])}; c=8: ${
      row(r.hub.per_wiki_search[1])
    }`,
  );
  console.log(
    `  across ${r.hub.across_wikis_covered} wikis c=1: ${row(r.hub.across_wikis_search[0])}; c=8: ${
      row(r.hub.across_wikis_search[1])
    }`,
  );
  console.log(`  first search of a cold wiki: ${row(r.hub.cold_first_search)}`);
  console.log(
    `  memory: ${r.hub.rss_mib} MiB resident (index cache bound ${r.hub.index_cache_mib_max} MiB)`,
  );
  if (r.replica) {
    console.log(
      `c=8 per-wiki search: primary ${r.replica.primary.calls_per_s}/s, primary + replica ${r.replica.with_replica.calls_per_s}/s (x${r.replica.ratio}, same cores)`,
    );
  }
  console.log(
    `MCP/direct p50: PostgreSQL ${r.mcp.postgres.ratio_p50} (${r.mcp.postgres.mcp.p50_ms} / ${r.mcp.postgres.direct.p50_ms} ms)` +
      (r.mcp.pglite
        ? `, PGlite ${r.mcp.pglite.ratio_p50} (${r.mcp.pglite.mcp.p50_ms} / ${r.mcp.pglite.direct.p50_ms} ms)`
        : ""),
  );
}

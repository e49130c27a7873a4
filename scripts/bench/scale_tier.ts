import type { Db } from "../../src/db/db.ts";
import { openPostgres } from "../../src/db/postgres.ts";
import type { Deps } from "../../src/deps.ts";
import { round } from "../../src/search/metrics.ts";
import { searchWikis } from "../../src/search/search_wikis.ts";
import type { EvalPage } from "./corpus.ts";
import { copyHub, HUB_TEMPLATE } from "./hub_copy.ts";
import { type HubFigures, type HubPlan, hubWikiId, measureHub } from "./hub_tier.ts";
import { type Latency, measureLatency } from "./latency.ts";
import { type McpOverhead, measureMcpOverhead } from "./mcp_overhead.ts";
import type { BenchSetup } from "./setup.ts";
import { findPostgres, openBenchPostgres } from "./stores.ts";
import { dropVectorIndex, vacuum } from "./tiers.ts";

/** What the scale tier reports (issue 33). */
export type ScaleFigures = {
  servers: string;
  plan: HubPlan;
  hub: HubFigures;
  replica: { primary: Latency; with_replica: Latency; ratio: number } | null;
  /** Why the replica's comparison is missing when a replica was there (it did not catch up). */
  replica_skipped?: string;
  mcp: McpOverhead | null;
};

/**
 * Past one machine, on a primary and a streaming replica of their own (scripts/setup_replica.sh;
 * `replica: false` or no root: the bench's PostgreSQL, no replica): a hub of `plan.wikis`
 * public wikis holding `plan.chunks` chunks in all, sizes skewed as hubs are (scripts/bench/
 * hub_copy.ts), with `list_wikis` paging, per-wiki search and search across the wikis the hub's
 * `search` covers at c = 1 and c = 8, the first search of cold wikis and this process's memory;
 * searches/s at c = 8 on the primary alone against primary + replica (on one machine both share
 * its cores); MCP `search` against the direct call on the largest hub wiki.
 */
export async function measureScale(
  setup: BenchSetup,
  base: EvalPage[],
  queries: string[],
  options: {
    plan: HubPlan;
    calls: number;
    replica: boolean;
    step: (text: string) => void;
    /** The hub's database: its name, reused if it exists, kept at the end. */
    database?: { name: string; reuse: boolean; keep: boolean };
    /** Load (or find) the hub and stop: no figures. */
    loadOnly?: boolean;
    /** False: no MCP against the direct call (`mcp` is null). */
    mcp?: boolean;
    /** False: no per-wiki searches of wikis drawn by size (`hub.per_wiki_search` empty). */
    drawn?: boolean;
    /** How many of the largest wikis the replica's comparison searches (50). */
    replicaWikis?: number;
  },
): Promise<ScaleFigures | null> {
  const { plan, calls, step } = options;
  const limits = { calls, maxSeconds: 10, warmup: 10 };
  const servers = await primaryAndReplica(setup.env, options.replica, step);
  const store = await openBenchPostgres(servers.primary, options.database);
  const replicaUrl = servers.replica ? sameDatabase(servers.replica, store.url!) : null;
  // A loaded machine may take more than the service's 5 s to open a connection.
  const db = openPostgres(store.url!, { connectTimeoutSeconds: 60 });
  const deps: Deps = { config: setup.config, db, log: setup.log, embedder: setup.embedder };
  let replica: Db | null = null;
  try {
    const t = performance.now();
    let loaded = store.reused ? await hubLoaded(db) : [];
    if (loaded.length === 0) {
      await dropVectorIndex(db, setup.embedder);
      loaded = await copyHub(deps, base, plan, step);
      await vacuum(db);
    }
    const loadSeconds = round((performance.now() - t) / 1000);
    step(
      `hub ${store.reused ? "found" : "loaded"}: ${loaded.length} wikis, ` +
        `${loaded.reduce((a, b) => a + b, 0)} chunks in ${loadSeconds} s`,
    );
    if (options.loadOnly) return null;
    const hub = {
      ...await measureHub(deps, loaded, queries, [1, 8], limits, step, options.drawn ?? true),
      load_seconds: loadSeconds,
    };
    step(
      `hub measured: ${hub.rss_mib} MiB resident, index cache ${hub.index_cache_mib_held} of ` +
        `${hub.index_cache_mib_max} MiB (${hub.index_cache_wikis_held} wikis)`,
    );
    let replicaRatio = null;
    let replicaSkipped: string | undefined;
    if (replicaUrl) {
      replica = openPostgres(replicaUrl, { connectTimeoutSeconds: 60 });
      replicaSkipped = await caughtUp(db, replica, step);
    }
    if (replica && !replicaSkipped) {
      replicaRatio = await compareReplica(
        deps,
        replica,
        loaded.slice(0, options.replicaWikis ?? 50),
        queries.slice(0, calls),
        limits,
      );
      step(
        `c=8: primary ${replicaRatio.primary.calls_per_s}/s, ` +
          `+ replica ${replicaRatio.with_replica.calls_per_s}/s`,
      );
    }
    const mcp = options.mcp === false
      ? null
      : await measureMcpOverhead(deps, hubWikiId(0), queries.slice(0, 200));
    if (mcp) {
      step(
        `MCP/direct on PostgreSQL, hub's largest wiki: ${mcp.ratio_p50} (SDK client), ` +
          `${mcp.ratio_plain_p50} (plain JSON-RPC client)`,
      );
    }
    return {
      servers: replicaUrl
        ? "a primary and a streaming replica of its own (scripts/setup_replica.sh), one machine"
        : "the bench's PostgreSQL, no replica",
      plan,
      hub,
      replica: replicaRatio,
      ...(replicaSkipped ? { replica_skipped: replicaSkipped } : {}),
      mcp,
    };
  } finally {
    await replica?.close();
    await db.close();
    await store.drop();
  }
}

/** Chunks per hub wiki of a hub loaded by an earlier run (`--reuse-db`), largest first. */
async function hubLoaded(db: Db): Promise<number[]> {
  const rows = await db<{ chunks: number }>`
    SELECT s.chunks::int AS chunks FROM search_stats s
    WHERE s.wiki_id LIKE 'hub-%' AND s.wiki_id <> ${HUB_TEMPLATE} ORDER BY s.wiki_id`;
  return rows.map((r) => r.chunks);
}

/** The primary (and the replica) to load: scripts/setup_replica.sh's, or the bench's server. */
async function primaryAndReplica(
  env: Record<string, string>,
  withReplica: boolean,
  step: (text: string) => void,
): Promise<{ primary: string; replica: string | null }> {
  if (withReplica) {
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

/** How long the bench waits for the replica to replay what the primary wrote (10 min). */
const CATCH_UP_SECONDS = 600;
/** How long a replica may go without a WAL receiver before the wait is given up. */
const NOT_STREAMING_SECONDS = 30;

/**
 * Waits until the replica has replayed everything the primary has written so far; the reason
 * it did not, with how far behind it is, after `CATCH_UP_SECONDS` or once it has had no WAL
 * receiver for `NOT_STREAMING_SECONDS` (a replica that lost its place in the WAL never catches
 * up: the run goes on without the replica's comparison rather than waiting for nothing).
 */
async function caughtUp(
  primary: Db,
  replica: Db,
  step: (line: string) => void,
): Promise<string | undefined> {
  const [row] = await primary<{ lsn: string }>`SELECT pg_current_wal_lsn()::text AS lsn`;
  const started = performance.now();
  let streamingSeen = started;
  for (let waited = 0; waited < CATCH_UP_SECONDS; waited = (performance.now() - started) / 1000) {
    const [state] = await replica<{ past: boolean; behind: string | null; streaming: boolean }>`
      SELECT pg_last_wal_replay_lsn() >= ${row!.lsn}::pg_lsn AS past,
        pg_wal_lsn_diff(${row!.lsn}::pg_lsn, pg_last_wal_replay_lsn())::text AS behind,
        EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming') AS streaming`;
    if (state!.past) return undefined;
    if (state!.streaming) streamingSeen = performance.now();
    const behind = `${round(Number(state!.behind ?? 0) / 2 ** 20)} MiB behind`;
    if ((performance.now() - streamingSeen) / 1000 > NOT_STREAMING_SECONDS) {
      const reason = `the replica is not streaming (${behind}): see its log; ` +
        "scripts/setup_replica.sh gives it a replication slot";
      step(`replica skipped: ${reason}`);
      return reason;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const reason = `the replica did not catch up in ${CATCH_UP_SECONDS} s`;
  step(`replica skipped: ${reason}`);
  return reason;
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
  limits: { maxSeconds: number; warmup: number },
): Promise<{ primary: Latency; with_replica: Latency; ratio: number }> {
  const ids = loaded.map((_, i) => hubWikiId(i)).slice(0, 50);
  const calls = queries.map((q, n) => ({ id: ids[n % ids.length]!, q, n }));
  const onReplica: Deps = { ...deps, reads: Object.assign(replica, { home: deps.db }) as Db };
  // Each leg once unmeasured first: the replica's copy of the files is not in memory until it
  // is read (the primary's was read by the steps before), and the searches the SQL leg answers
  // read them.
  await measureLatency(calls, ({ id, q }) => searchWikis(deps, [id], { query: q, limit: 10 }), 8);
  await measureLatency(
    calls,
    ({ id, q }) => searchWikis(onReplica, [id], { query: q, limit: 10 }),
    8,
  );
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

/** The scale tier as lines of text. */
export function scaleSummary(r: ScaleFigures): string[] {
  const row = (l: Latency) => `p50 ${l.p50_ms} ms, p95 ${l.p95_ms} ms, ${l.calls_per_s}/s`;
  const h = r.hub;
  const lines = [
    `Hub: ${h.wikis} wikis, ${h.chunks} chunks (largest ${h.largest_wiki_chunks}, median ` +
    `${h.median_wiki_chunks}), loaded in ${h.load_seconds} s`,
    `  list_wikis page of 50: ${row(h.list_wikis_page)}`,
    ...h.per_wiki_search.map((l) => `  per-wiki search, wikis drawn by size: ${row(l)}`),
    `  largest wiki c=1: ${row(h.largest_wiki_search[0]!)}; c=8: ${row(h.largest_wiki_search[1]!)}`,
    `  median wiki c=1: ${row(h.median_wiki_search[0]!)}; c=8: ${row(h.median_wiki_search[1]!)}`,
    `  across ${h.across_wikis_covered} wikis c=1: ${row(h.across_wikis_search[0]!)}; c=8: ${
      row(h.across_wikis_search[1]!)
    }`,
    `  first search of a cold wiki: ${row(h.cold_first_search)}`,
    `  memory: ${h.rss_mib} MiB resident (index cache bound ${h.index_cache_mib_max} MiB, ` +
    `holding ${h.index_cache_mib_held} MiB of ${h.index_cache_wikis_held} wikis)`,
  ];
  if (r.replica) {
    lines.push(
      `c=8 per-wiki search: primary ${r.replica.primary.calls_per_s}/s, primary + replica ` +
        `${r.replica.with_replica.calls_per_s}/s (x${r.replica.ratio}, the same cores)`,
    );
  }
  if (r.mcp) {
    lines.push(
      `MCP/direct p50, hub's largest wiki, SDK client: ${r.mcp.ratio_p50} (${r.mcp.mcp.p50_ms} / ` +
        `${r.mcp.direct.p50_ms} ms; each repetition ${r.mcp.ratios.join(", ")})`,
      `MCP/direct p50, hub's largest wiki, plain JSON-RPC client: ${r.mcp.ratio_plain_p50} ` +
        `(${r.mcp.mcp_plain.p50_ms} / ${r.mcp.direct.p50_ms} ms; each repetition ` +
        `${r.mcp.ratios_plain.join(", ")}); CPU ms a call, direct / SDK / plain: ` +
        `${r.mcp.cpu_ms_per_call.direct} / ${r.mcp.cpu_ms_per_call.mcp} / ` +
        `${r.mcp.cpu_ms_per_call.mcp_plain}`,
      `MCP/direct p50, hub's largest wiki, SDK client with its own time taken out: ` +
        `${r.mcp.ratio_sdk_own_out_p50} (its own time ${r.mcp.sdk_client_own_ms} ms a call, ` +
        `measured against a server answering a stored copy)`,
    );
  }
  return lines;
}

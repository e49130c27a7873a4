/**
 * `deno run -A scripts/bench/versions.ts [--search-chunks N] [--memory-chunks M]
 * [--queries Q] [--rounds R] [--no-postgres] [--no-pglite]` (also the versions step of
 * `deno task bench`): versions of a space, on PostgreSQL (DATABASE_URL, a throwaway database
 * on its server) and on in-memory PGlite. Two synthetic wikis (five sections a page, about one chunk each), bulk loaded:
 *
 * - search: N chunks, published as v1, 2% of the pages rewritten, v2, 2% more rewritten; then
 *   search latency at concurrency 8 over Q two-word queries in the live pages, in v1 (the
 *   version with most pages changed since) and in v2, interleaved over R rounds (`--rounds`,
 *   3): live, v1, v2, live, v1, v2, …, each reported by its median round;
 * - memory: M chunks, published as ten versions with 2% of the pages rewritten after each;
 *   the bytes of the live in-memory index, and what the versions' views add to it with one
 *   version searched and with all ten.
 *
 * Prints one JSON object.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config/config.ts";
import type { Db } from "../../src/db/db.ts";
import { openThrowawayStore } from "../../src/db/throwaway.ts";
import type { Deps } from "../../src/deps.ts";
import { importPages } from "../../src/importer/import_pages.ts";
import { createLog } from "../../src/lib/log.ts";
import { createEmbedder } from "../../src/search/create_embedder.ts";
import { lexicalCacheSize } from "../../src/search/lexical_cache.ts";
import { round } from "../../src/search/metrics.ts";
import { searchWikis } from "../../src/search/search_wikis.ts";
import { versionViewBytes } from "../../src/search/version_index.ts";
import { publishVersion } from "../../src/versions/versions.ts";
import { createWiki } from "../../src/wikis/wikis.ts";
import { bulkLoadPages } from "./bulk_load.ts";
import { type Latency, measureLatency } from "./latency.ts";
import { withoutPostingKeys } from "./postings.ts";

/** What the versions step measures: the search tier's size, the memory tier's, the queries. */
export type VersionsPlan = {
  searchChunks: number;
  memoryChunks: number;
  queries: number;
  /** Interleaved rounds of live, v1 and v2 searches (3 unless given). */
  rounds?: number;
};

/** A deterministic vocabulary of 20,000 made-up words, skewed so a few are common. */
const WORDS = Array.from({ length: 20_000 }, (_, i) => `w${(i * 7919 % 20_000).toString(36)}x`);

function generator(start: number) {
  let seed = start;
  const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const words = (n: number) =>
    Array.from({ length: n }, () => WORDS[Math.floor(rand() ** 2 * WORDS.length)]);
  return { rand, words };
}
const text = generator(7);

/** Page `i` as written in `edition`: five sections of about 60 words. */
function page(i: number, edition: number) {
  const sections = Array.from(
    { length: 5 },
    (_, s) =>
      `## Part ${s} ${text.words(2).join(" ")}\n\n${
        text.words(60).join(" ")
      } edition ${edition}.\n`,
  );
  return { name: `P${i}.md`, path: `P${i}`, markdown: `# Page ${i}\n\n${sections.join("\n")}` };
}

/** A wiki of `chunks` chunks (five a page), written in one bulk load. */
async function growWiki(deps: Deps, wikiId: string, chunks: number): Promise<number> {
  await createWiki(deps.db, { id: wikiId, visibility: "public" });
  const pages = Math.ceil(chunks / 5);
  const loaded = await withoutPostingKeys(
    deps.db,
    "256MB",
    () =>
      bulkLoadPages(deps, wikiId, Array.from({ length: pages }, (_, i) => page(i, 0)), {
        maxChunks: chunks,
      }),
  );
  return loaded.pages;
}

/** Rewrites 2% of the wiki's pages (a new edition each), as an import would. */
async function rewriteSome(deps: Deps, wikiId: string, pages: number, edition: number) {
  const ids = new Set(Array.from({ length: Math.ceil(pages / 50) }, () => {
    return Math.floor(text.rand() * pages);
  }));
  await importPages(deps, wikiId, [...ids].map((i) => page(i, edition)), { source: "bench" });
  return ids.size;
}

/** The run whose p50 is the median of the runs' (the middle one; of two, the lower). */
function medianRun(runs: Latency[]): Latency {
  return [...runs].sort((a, b) => a.p50_ms - b.p50_ms)[Math.floor((runs.length - 1) / 2)]!;
}

/**
 * Search at c = 8 in the live pages, the oldest and the newest version, interleaved over
 * `rounds` rounds (live, v1, v2, live, v1, v2, …) so the machine's drift falls on all three
 * alike; each is reported by its median round, and the ratios are of the medians' p50s.
 */
async function searchTier(
  deps: Deps,
  plan: VersionsPlan,
  progress: (text: string) => void,
) {
  const pages = await growWiki(deps, "vsearch", plan.searchChunks);
  progress(`search tier: ${plan.searchChunks} chunks loaded`);
  let changed = 0;
  for (const v of [1, 2]) {
    await publishVersion(deps.db, "vsearch", { name: `v${v}` }, null);
    changed += await rewriteSome(deps, "vsearch", pages, v);
    progress(`search tier: v${v} published, ${changed} pages rewritten since v1`);
  }
  const queries = generator(11);
  const asked = Array.from({ length: plan.queries }, () => queries.words(2).join(" "));
  const run = (version?: string) =>
    measureLatency(
      asked,
      (query) => searchWikis(deps, ["vsearch"], { query, limit: 10, version }),
      8,
      { warmup: 20, maxSeconds: 120 },
    );
  const rounds: { live: Latency; oldest_version: Latency; newest_version: Latency }[] = [];
  for (let r = 0; r < (plan.rounds ?? 3); r++) {
    const live = await run();
    const oldest_version = await run("v1");
    const newest_version = await run("v2");
    rounds.push({ live, oldest_version, newest_version });
    progress(
      `search tier round ${r + 1}: p50 live ${live.p50_ms.toFixed(0)} ms, v1 ` +
        `${oldest_version.p50_ms.toFixed(0)} ms, v2 ${newest_version.p50_ms.toFixed(0)} ms`,
    );
  }
  const live = medianRun(rounds.map((r) => r.live));
  const oldest = medianRun(rounds.map((r) => r.oldest_version));
  const newest = medianRun(rounds.map((r) => r.newest_version));
  return {
    chunks: await chunkCount(deps.db, "vsearch"),
    pages,
    pages_changed_since_v1: changed,
    rounds,
    live,
    oldest_version: oldest,
    newest_version: newest,
    oldest_vs_live_p50: round(oldest.p50_ms / live.p50_ms),
    newest_vs_live_p50: round(newest.p50_ms / live.p50_ms),
  };
}

/** Index bytes of a wiki with one version searched, and with ten. */
async function memoryTier(deps: Deps, plan: VersionsPlan) {
  const pages = await growWiki(deps, "vmemory", plan.memoryChunks);
  const searchAll = async (n: number) => {
    for (let v = 1; v <= n; v++) {
      await searchWikis(deps, ["vmemory"], { query: "w1x", limit: 10, version: `v${v}` });
    }
    const live = lexicalCacheSize(deps.db).find((w) => w.wiki === "vmemory")!.bytes;
    const added = versionViewBytes(deps.db);
    return {
      versions: added.versions,
      live_index_bytes: live,
      versions_add_bytes: added.bytes,
      overlay_chunks: added.overlay_chunks,
      overlay_postings: added.overlay_postings,
      total_vs_live: round((live + added.bytes) / live),
    };
  };
  await publishVersion(deps.db, "vmemory", { name: "v1" }, null);
  await rewriteSome(deps, "vmemory", pages, 1);
  const one = await searchAll(1);
  for (let v = 2; v <= 10; v++) {
    await publishVersion(deps.db, "vmemory", { name: `v${v}` }, null);
    await rewriteSome(deps, "vmemory", pages, v);
  }
  const ten = await searchAll(10);
  return {
    chunks: await chunkCount(deps.db, "vmemory"),
    pages,
    changed_per_version: Math.ceil(pages / 50),
    one_version: one,
    ten_versions: ten,
  };
}

async function chunkCount(db: Db, wikiId: string): Promise<number> {
  const [row] = await db<{ n: number }>`
    SELECT count(*)::int AS n FROM chunks WHERE wiki_id = ${wikiId}`;
  return row!.n;
}

/**
 * The versions step on one store: a throwaway database on `databaseUrl`'s server, or in-memory
 * PGlite without one. The memory tier runs first, so its figures hold its versions alone.
 */
export async function benchVersions(
  store: { name: string; databaseUrl?: string | undefined },
  plan: VersionsPlan,
  progress: (text: string) => void = () => {},
) {
  const config = loadConfig({
    ...Deno.env.toObject(),
    DATABASE_URL: store.databaseUrl ?? "",
    LOG_LEVEL: "error",
  });
  const { db, drop } = await openThrowawayStore(config);
  const deps: Deps = {
    db,
    config,
    log: createLog("error"),
    embedder: await createEmbedder(config.embedding),
  };
  try {
    const started = performance.now();
    const memory = await memoryTier(deps, plan);
    progress(`versions memory tier on ${store.name}`);
    const search = await searchTier(deps, plan, progress);
    progress(`versions search tier on ${store.name}`);
    return {
      store: store.name,
      seconds: round((performance.now() - started) / 1000),
      search_c8: search,
      memory,
    };
  } finally {
    await drop();
  }
}

/** The target of issue 31: a version's search p50 within 1.5× of the live pages'. */
export const VERSION_SEARCH_TARGET = 1.5;

/** The versions step's figures as markdown tables (the shape docs/performance.md quotes). */
export function versionsReport(results: Awaited<ReturnType<typeof benchVersions>>[]): string {
  // Nothing measured (`--no-versions`): no tables, and no verdict on nothing.
  if (results.length === 0) return "Versions: not measured (--no-versions).";
  const lines: string[] = [];
  const row = (cells: (string | number)[]) => lines.push(`| ${cells.join(" | ")} |`);
  row(["Store", "Chunks", "Search at c = 8", "calls/s", "p50 ms", "p95 ms", "p50 / live"]);
  row(["---", "---", "---", "---", "---", "---", "---"]);
  for (const r of results) {
    const s = r.search_c8;
    const runs: [string, Latency][] = [
      [`live pages (median of ${s.rounds.length} rounds)`, s.live],
      [`oldest version (v1: ${s.pages_changed_since_v1} pages changed since)`, s.oldest_version],
      ["newest version (v2)", s.newest_version],
    ];
    for (const [name, l] of runs) {
      row([
        r.store,
        s.chunks,
        name,
        l.calls_per_s.toFixed(1),
        l.p50_ms.toFixed(1),
        l.p95_ms.toFixed(1),
        (l.p50_ms / s.live.p50_ms).toFixed(2),
      ]);
    }
  }
  const worst = Math.max(
    ...results.flatMap((r) => [r.search_c8.oldest_vs_live_p50, r.search_c8.newest_vs_live_p50]),
  );
  lines.push(
    "",
    `A version against live, p50: ${worst.toFixed(2)}× at worst (target ≤ ` +
      `${VERSION_SEARCH_TARGET}×: ${worst <= VERSION_SEARCH_TARGET ? "met" : "missed"}).`,
    "",
  );
  row(["Store", "Chunks", "Versions searched", "Live index bytes", "Versions add", "Total / live"]);
  row(["---", "---", "---", "---", "---", "---"]);
  for (const r of results) {
    for (const m of [r.memory.one_version, r.memory.ten_versions]) {
      row([
        r.store,
        r.memory.chunks,
        m.versions,
        m.live_index_bytes,
        m.versions_add_bytes,
        m.total_vs_live.toFixed(2),
      ]);
    }
  }
  return lines.join("\n");
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      "search-chunks": { type: "string", default: "100000" },
      "memory-chunks": { type: "string", default: "10000" },
      queries: { type: "string", default: "200" },
      rounds: { type: "string", default: "3" },
      "no-postgres": { type: "boolean", default: false },
      "no-pglite": { type: "boolean", default: false },
    },
  });
  const plan = {
    searchChunks: Number(values["search-chunks"]),
    memoryChunks: Number(values["memory-chunks"]),
    queries: Number(values.queries),
    rounds: Number(values.rounds),
  };
  const url = Deno.env.get("DATABASE_URL");
  const stores = [
    ...(url && !values["no-postgres"] ? [{ name: "postgres", databaseUrl: url }] : []),
    ...(values["no-pglite"] ? [] : [{ name: "pglite" }]),
  ];
  const log = (line: string) => console.error(`[${new Date().toISOString()}] ${line}`);
  const results = [];
  for (const store of stores) {
    results.push(await benchVersions(store, plan, log));
    // Each store's figures as soon as they are known: a later store may take long.
    log(JSON.stringify(results.at(-1)));
  }
  console.log(
    JSON.stringify({ command: ["versions.ts", ...Deno.args].join(" "), results }, null, 2),
  );
}

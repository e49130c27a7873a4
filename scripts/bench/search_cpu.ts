/**
 * `deno run -A scripts/bench/search_cpu.ts --url postgres://…/postgres [--build] [--chunks 100000]
 * [--calls 2000] [--concurrency 8]`: the CPU one search costs, Deno's and PostgreSQL's
 * together, on the bench wiki (`deno task bench`'s corpus) in a database `wiki_cpu` on the server
 * of `--url` (ideally a server of its own, so that only this run's backends count). `--build`
 * (re)creates the database and loads the wiki to `--chunks` chunks; without it, the wiki of an
 * earlier `--build` is searched. Counts user + system ticks of this process (/proc/self/stat)
 * and of the server's postmaster and every child of it (/proc/<pid>/stat) over `--calls`
 * searches by `--concurrency` callers, and prints CPU ms per search beside throughput, p50/p95
 * and the load average: wall-clock figures move with other work on a shared machine, CPU per
 * search much less.
 */
import { benchQueries, benchSetup } from "./setup.ts";
import { parseArgs } from "node:util";
import type { Deps } from "../../src/deps.ts";
import { openPostgres } from "../../src/db/postgres.ts";
import { migrate } from "../../src/db/migrate.ts";

import { warmLexicalIndex } from "../../src/search/lexical_cache.ts";
import { searchWikis } from "../../src/search/search_wikis.ts";
import { createWiki } from "../../src/wikis/wikis.ts";
import { bulkLoadPages } from "./bulk_load.ts";
import { asSources, type EvalPage, replicaPages } from "./corpus.ts";
import { measureLatency } from "./latency.ts";
import { withoutPostingKeys } from "./postings.ts";
import { vacuum } from "./tiers.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    url: { type: "string" },
    build: { type: "boolean", default: false },
    chunks: { type: "string", default: "100000" },
    calls: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "8" },
  },
});
if (!values.url) throw new Error("--url postgres://… (a server's URL) is required");
const DATABASE = "wiki_cpu";
const { config, embedder, log, sets } = await benchSetup();
const url = new URL(values.url);
url.pathname = `/${DATABASE}`;

if (values.build) {
  const admin = openPostgres(values.url, { max: 1 });
  await admin.exec(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.exec(`CREATE DATABASE ${DATABASE}`);
  await admin.close();
}
const db = openPostgres(url.toString());
const deps: Deps = { config, db, log, embedder };
if (values.build) {
  await migrate(db);
  await createWiki(db, { id: "bench", visibility: "public" });
  const base: EvalPage[] = [
    ...sets.squad.pages.map((p) => ({ ...p, path: `squad/${p.path}` })),
    ...sets.scifact.pages.map((p) => ({ ...p, path: `scifact/${p.path}` })),
  ];
  const size = Number(values.chunks);
  const sources = [...asSources(base), ...replicaPages(base, 0, size)];
  const loaded = await withoutPostingKeys(
    db,
    "1GB",
    () => bulkLoadPages(deps, "bench", sources, { maxChunks: size }),
  );
  await vacuum(db);
  console.error(`built: ${loaded.pages} pages, ${loaded.chunks} chunks`);
}

const queries = benchQueries(sets);
const calls = Number(values.calls);
const concurrency = Number(values.concurrency);
const [backend] = await db<{ pid: number }>`SELECT pg_backend_pid() AS pid`;
const postmaster = Number(statOf(backend!.pid)[1]);

await warmLexicalIndex(deps, ["bench"]);
for (const q of queries.slice(0, 50)) await searchWikis(deps, ["bench"], { query: q, limit: 10 });
const load = Deno.loadavg();
const before = { deno: ticksOf("self"), postgres: serverTicks(postmaster) };
const latency = await measureLatency(
  queries.slice(50, 50 + calls),
  (q) => searchWikis(deps, ["bench"], { query: q, limit: 10 }),
  concurrency,
  { warmup: 0 },
);
const after = { deno: ticksOf("self"), postgres: serverTicks(postmaster) };
const hz = 100; // USER_HZ on Linux
const perSearch = (ticks: number) => Math.round(ticks / hz * 1000 / latency.calls * 100) / 100;
const deno = perSearch(after.deno - before.deno);
const postgres = perSearch(after.postgres - before.postgres);
console.log(JSON.stringify({
  ...latency,
  cpu_ms_per_search: { deno, postgres, total: Math.round((deno + postgres) * 100) / 100 },
  load_before: load,
  load_after: Deno.loadavg(),
}));
await db.close();

/** Fields of /proc/<pid>/stat after the command name: [0] state, [1] ppid, … */
function statOf(pid: number | "self"): string[] {
  const text = Deno.readTextFileSync(`/proc/${pid}/stat`);
  return text.slice(text.lastIndexOf(")") + 2).split(" ");
}

/** User + system ticks of a process (utime and stime: fields 14 and 15 of stat). */
function ticksOf(pid: number | "self"): number {
  const f = statOf(pid);
  return Number(f[11]) + Number(f[12]);
}

/** Ticks of the postmaster and every process it started (backends, background workers). */
function serverTicks(postmaster: number): number {
  let sum = ticksOf(postmaster);
  for (const entry of Deno.readDirSync("/proc")) {
    const pid = Number(entry.name);
    if (!Number.isInteger(pid)) continue;
    try {
      if (Number(statOf(pid)[1]) === postmaster) sum += ticksOf(pid);
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}

/**
 * `deno run -A scripts/bench/pglite_memory.ts [--data-dir DIR] [--chunks 10000] [--runs 5]
 * [--seconds 8] [--clients 32]`: the bench's server-memory step alone, on PGlite. Builds the
 * bench wiki (SQuAD and SciFact pages, then copies; scripts/bench/bulk_load.ts) to `--chunks`
 * in `--data-dir` unless a previous run left it there, then starts the real server on it
 * `--runs` times (scripts/bench/server_memory.ts: VmRSS idle 2 s after /readyz, then under
 * `--clients` MCP clients searching) and prints each run and the medians.
 */
import { benchQueries, benchSetup } from "./setup.ts";
import { parseArgs } from "node:util";
import { migrate } from "../../src/db/migrate.ts";
import { openPglite } from "../../src/db/pglite.ts";
import { createLog } from "../../src/lib/log.ts";
import { createWiki } from "../../src/wikis/wikis.ts";
import { bulkLoadPages } from "./bulk_load.ts";
import { asSources, type EvalPage, replicaPages } from "./corpus.ts";
import { withoutPostingKeys } from "./postings.ts";
import { measureServerMemory } from "./server_memory.ts";
import { dropVectorIndex, vacuum } from "./tiers.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    "data-dir": { type: "string", default: "/tmp/wiki_pglite_memory" },
    chunks: { type: "string", default: "10000" },
    runs: { type: "string", default: "5" },
    seconds: { type: "string", default: "8" },
    clients: { type: "string", default: "32" },
  },
});
const dataDir = values["data-dir"];
const { config, embedder, sets } = await benchSetup();
const queries = benchQueries(sets, 400);

const built = await Deno.stat(`${dataDir}/pglite`).then(() => true, () => false);
if (!built) {
  const db = await openPglite(dataDir);
  try {
    await migrate(db);
    await createWiki(db, { id: "bench", visibility: "public" });
    await dropVectorIndex(db, embedder);
    const base: EvalPage[] = [
      ...sets.squad.pages.map((p) => ({ ...p, path: `squad/${p.path}` })),
      ...sets.scifact.pages.map((p) => ({ ...p, path: `scifact/${p.path}` })),
    ];
    const need = Number(values.chunks);
    const sources = [...asSources(base.slice(0, need)), ...replicaPages(base, 0, need)];
    const deps = { config, db, log: createLog("error"), embedder };
    const loaded = await withoutPostingKeys(
      db,
      "512MB",
      () => bulkLoadPages(deps, "bench", sources, { maxChunks: need }),
    );
    await vacuum(db);
    console.error(`built ${loaded.chunks} chunks (${loaded.pages} pages) in ${dataDir}`);
  } finally {
    await db.close();
  }
}

const runs = [];
for (let i = 0; i < Number(values.runs); i++) {
  const load = Deno.loadavg()[0] ?? 0;
  const m = await measureServerMemory(
    { name: "pglite", env: { DATA_DIR: dataDir } },
    "bench",
    queries,
    Number(values.clients),
    Number(values.seconds),
  );
  runs.push(m);
  console.log(
    `run ${i + 1}: load ${load.toFixed(2)}, start ${m.start_s} s, idle ${m.idle_rss_mib} MiB, ` +
      `peak ${m.load_peak_rss_mib} MiB (HWM ${m.peak_hwm_mib}), after ${m.after_load_rss_mib} MiB, ` +
      `${m.load.calls_per_s} calls/s, p50 ${m.load.p50_ms} ms`,
  );
}
const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `median of ${runs.length}: idle ${median(runs.map((r) => r.idle_rss_mib))} MiB, peak ` +
    `${median(runs.map((r) => r.load_peak_rss_mib))} MiB, HWM ${
      median(runs.map((r) => r.peak_hwm_mib))
    } MiB, ${median(runs.map((r) => r.load.calls_per_s))} calls/s`,
);

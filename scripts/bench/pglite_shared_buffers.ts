/**
 * `deno run -A scripts/bench/pglite_shared_buffers.ts [--data-dir DIR] [--sizes 128,32,16]
 * [--rounds 2] [--import-pages 300]`: what PGlite's `shared_buffers` costs in speed, on the
 * bench wiki scripts/bench/pglite_memory.ts leaves in `--data-dir`. For each size, in turn and
 * `--rounds` times: the first search (the lexical index read), `searchWikis` at c = 1 and c = 8
 * (10 results), then an import of `--import-pages` SQuAD pages into a copy of the store (page
 * by page, as `deno task import` does). Prints one line per size and round.
 */
import { benchQueries, benchSetup } from "./setup.ts";
import { parseArgs } from "node:util";
import { openPglite } from "../../src/db/pglite.ts";
import type { Deps } from "../../src/deps.ts";

import { warmLexicalIndex } from "../../src/search/lexical_cache.ts";
import { searchWikis } from "../../src/search/search_wikis.ts";
import { round } from "../../src/search/metrics.ts";
import { measureImport } from "./ingest.ts";
import { measureLatency } from "./latency.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    "data-dir": { type: "string", default: "/tmp/wiki_pglite_memory" },
    sizes: { type: "string", default: "128,32,16" },
    rounds: { type: "string", default: "2" },
    "import-pages": { type: "string", default: "300" },
  },
});
const dataDir = values["data-dir"];
const { config, embedder, log, sets } = await benchSetup();
const queries = benchQueries(sets, 400);
const importPages = sets.squad.pages.slice(0, Number(values["import-pages"]));

for (let r = 1; r <= Number(values.rounds); r++) {
  for (const mb of values.sizes.split(",").map(Number)) {
    const load = Deno.loadavg()[0] ?? 0;
    const db = await openPglite(dataDir, mb);
    const deps: Deps = { config, db, log, embedder };
    let line: string;
    try {
      const t = performance.now();
      await warmLexicalIndex(deps, ["bench"]);
      const first = round(performance.now() - t);
      const limits = { maxSeconds: 8, warmup: 10 };
      const search = (q: string) => searchWikis(deps, ["bench"], { query: q, limit: 10 });
      const c1 = await measureLatency(queries.slice(0, 300), search, 1, limits);
      const c8 = await measureLatency(queries, search, 8, limits);
      // Less noisy on a shared machine than wall time: this process's CPU time, and the blocks
      // PostgreSQL had to read from the file system rather than find in its buffers.
      const before = { cpu: cpuMs(), ...await blocks(deps) };
      for (const q of queries) await search(q);
      const after = { cpu: cpuMs(), ...await blocks(deps) };
      const per = (a: number, b: number) => round((b - a) / queries.length);
      line = `round ${r}, shared_buffers ${mb} MB, load ${load.toFixed(2)}: first search ` +
        `${first} ms; c=1 p50 ${c1.p50_ms} ms, ${c1.calls_per_s}/s; c=8 p50 ${c8.p50_ms} ms, ` +
        `${c8.calls_per_s}/s; per search ${per(before.cpu, after.cpu)} ms CPU, ` +
        `${per(before.read, after.read)} blocks read, ${per(before.hit, after.hit)} hit`;
    } finally {
      await db.close();
    }
    const copy = await Deno.makeTempDir({ prefix: "wiki_sb_" });
    try {
      await new Deno.Command("cp", { args: ["-r", `${dataDir}/pglite`, copy] }).output();
      const db = await openPglite(copy, mb);
      try {
        const figures = await measureImport({ config, db, log, embedder }, "imp", importPages);
        line += `; import ${figures.pages_per_s} pages/s`;
      } finally {
        await db.close();
      }
    } finally {
      await Deno.remove(copy, { recursive: true });
    }
    console.log(line);
  }
}

/** User and system CPU time of this process so far, in ms (Linux /proc). */
function cpuMs(): number {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function blocks(deps: Deps): Promise<{ read: number; hit: number }> {
  const [row] = await deps.db<{ read: number; hit: number }>`
    SELECT blks_read::float8 AS read, blks_hit::float8 AS hit FROM pg_stat_database
    WHERE datname = current_database()`;
  return row!;
}

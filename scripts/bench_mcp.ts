/**
 * `deno task bench:mcp [--queries N]`: the protocol's cost. Imports SQuAD into a throwaway
 * store, then runs the same queries through `searchWikis` directly and through MCP `search`
 * on `/mcp/w/<id>/` over loopback HTTP with the real SDK client, one at a time, and prints
 * calls per second and p50/p95 for both, and their ratio. Writes bench/out/mcp_<store>.json.
 * `--compare-lean N`: N runs each with the lean tool-call path off and on, alternating.
 * `deno task bench` runs the same measurement (scripts/bench/mcp_overhead.ts) on larger wikis.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config/config.ts";
import { openThrowawayStore } from "../src/db/throwaway.ts";
import type { Deps } from "../src/deps.ts";
import { importPages } from "../src/importer/import_pages.ts";
import { readSources } from "../src/importer/read_sources.ts";
import { createLog } from "../src/lib/log.ts";
import { createEmbedder } from "../src/search/create_embedder.ts";
import { ensureVectorIndex } from "../src/search/vector_index.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { measureMcpOverhead, NO_RATE_LIMITS } from "./bench/mcp_overhead.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    queries: { type: "string", default: "500" },
    // How many times each leg runs, in turn (the figures are the repetitions' medians).
    repetitions: { type: "string", default: "5" },
    // Alternate runs with the lean tool-call path off and on (MCP_LEAN_CALLS), this many each.
    "compare-lean": { type: "string", default: "0" },
  },
});
const set = new URL("../../shared/eval/squad/", import.meta.url).pathname;
const config = loadConfig({ ...NO_RATE_LIMITS, ...Deno.env.toObject() });
const { db, drop } = await openThrowawayStore(config);
try {
  const embedder = await createEmbedder(config.embedding);
  await ensureVectorIndex(db, embedder);
  const deps: Deps = { config, db, log: createLog("error"), embedder };
  await createWiki(db, { id: "squad", visibility: "public" });
  await importPages(deps, "squad", await readSources(`${set}pages.jsonl`));
  const queries: string[] = (await Deno.readTextFile(`${set}queries.jsonl`)).split("\n")
    .filter(Boolean).map((l) => JSON.parse(l).query).slice(0, Number(values.queries));
  const rounds = Number(values["compare-lean"]);
  if (rounds > 0) await compareLean(deps, queries, rounds);
  else await measureOnce(deps, queries);
} finally {
  await drop();
}

/**
 * `rounds` runs each with the lean tool-call path off and on, alternating (off, on, off…), on
 * the one imported wiki: each run's figures as one line, the load average beside them.
 */
async function compareLean(deps: Deps, queries: string[], rounds: number) {
  const runs = [];
  for (let r = 0; r < rounds; r++) {
    for (const lean of [false, true]) {
      const load = Deno.loadavg()[0];
      const config = { ...deps.config, mcpLeanCalls: lean };
      const f = await measureMcpOverhead({ ...deps, config }, "squad", queries);
      const run = {
        lean,
        load,
        direct_p50: f.direct.p50_ms,
        sdk_p50: f.mcp.p50_ms,
        plain_p50: f.mcp_plain.p50_ms,
        ratio_sdk: f.ratio_p50,
        ratio_plain: f.ratio_plain_p50,
        ratio_apart: f.ratio_apart_p50,
        server_p50: f.server_p50_ms,
        ratio_server: f.ratio_server_p50,
        http_floor_p50: f.http_floor_p50_ms,
        sdk_client_own: f.sdk_client_own_ms,
        ratio_sdk_own_out: f.ratio_sdk_own_out_p50,
        ratios_sdk: f.ratios,
        ratios_plain: f.ratios_plain,
        cpu: f.cpu_ms_per_call,
      };
      runs.push(run);
      console.log(JSON.stringify(run));
    }
  }
  await Deno.mkdir(new URL("../bench/out/", import.meta.url), { recursive: true });
  await Deno.writeTextFile(
    new URL(`../bench/out/mcp_lean_${deps.db.kind}.json`, import.meta.url),
    JSON.stringify(runs, null, 2),
  );
}

/** One measurement: printed, and written to bench/out/mcp_<store>.json. */
async function measureOnce(deps: Deps, queries: string[]) {
  const repetitions = Number(values.repetitions);
  const figures = await measureMcpOverhead(deps, "squad", queries, {}, repetitions);
  console.table({
    direct: figures.direct,
    "mcp (SDK client)": figures.mcp,
    "mcp (plain JSON-RPC client)": figures.mcp_plain,
    "mcp (plain client, own worker)": figures.mcp_apart,
  });
  console.log(
    `MCP/direct p50: SDK client ${figures.ratio_p50}, plain client ${figures.ratio_plain_p50}, ` +
      `plain client in its own worker ${figures.ratio_apart_p50}; the server's own time ` +
      `${figures.ratio_server_p50} (${figures.server_p50_ms} ms against ${figures.direct.p50_ms}); ` +
      `HTTP alone ${figures.http_floor_p50_ms} ms; the SDK client's own time ` +
      `${figures.sdk_client_own_ms} ms a call, MCP/direct with it taken out ` +
      `${figures.ratio_sdk_own_out_p50}`,
  );
  console.log(JSON.stringify(figures));
  await Deno.mkdir(new URL("../bench/out/", import.meta.url), { recursive: true });
  await Deno.writeTextFile(
    new URL(`../bench/out/mcp_${db.kind}.json`, import.meta.url),
    JSON.stringify(figures, null, 2),
  );
}

/**
 * The peer comparison alone (the second part of `deno task bench`), on SciFact, without the
 * scale runs: `deno run --lock=deno.dev.lock -A scripts/bench/peers_run.ts [--queries N]
 * [--eval DIR]` (DIR holds `scifact/`; default `../shared/eval` beside the checkout).
 * Uses DATABASE_URL (a throwaway database on that server) or a throwaway PGlite; prints the
 * table and, last, the figures as JSON.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config/config.ts";
import { openThrowawayStore } from "../../src/db/throwaway.ts";
import { importPages } from "../../src/importer/import_pages.ts";
import { createLog } from "../../src/lib/log.ts";
import { createEmbedder } from "../../src/search/create_embedder.ts";
import { ensureVectorIndex } from "../../src/search/vector_index.ts";
import { createWiki } from "../../src/wikis/wikis.ts";
import { asSources, readEvalSets } from "./corpus.ts";
import { comparePeers } from "./peer_comparison.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { queries: { type: "string" }, eval: { type: "string" } },
});
const config = loadConfig({ ...Deno.env.toObject(), EMBEDDER: "offline" });
const embedder = await createEmbedder(config.embedding);
const sets = await readEvalSets(
  values.eval ?? new URL("../../../shared/eval", import.meta.url).pathname,
);
const { db, drop } = await openThrowawayStore(config);
try {
  await ensureVectorIndex(db, embedder);
  const deps = { config, db, log: createLog("error"), embedder };
  await createWiki(db, { id: "scifact", visibility: "private" });
  await importPages(deps, "scifact", asSources(sets.scifact.pages));
  const queries = sets.scifact.queries.slice(
    0,
    values.queries ? Number(values.queries) : undefined,
  );
  const result = await comparePeers(deps, "scifact", queries);
  console.table(
    result.engines.map((e) => ({
      engine: e.engine,
      "nDCG@10": e.ndcg_at_10,
      "R@10": e.recall_at_10,
      p50_ms: e.latency.p50_ms,
      p95_ms: e.latency.p95_ms,
      "p50 vs ours": e.p50_vs_ours,
    })),
  );
  const [load] = (await Deno.readTextFile("/proc/loadavg")).split(" ");
  console.log(JSON.stringify({ ...result, load_1min: Number(load) }));
} finally {
  await drop();
}

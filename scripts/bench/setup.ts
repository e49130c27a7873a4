import { type Config, loadConfig } from "../../src/config/config.ts";
import { createLog, type Log } from "../../src/lib/log.ts";
import { createEmbedder } from "../../src/search/create_embedder.ts";
import type { Embedder } from "../../src/lib/embedder.ts";
import { type EvalSets, interleave, readEvalSets } from "./corpus.ts";
import { NO_RATE_LIMITS } from "./mcp_overhead.ts";

/** What every bench script starts from. */
export type BenchSetup = {
  env: Record<string, string>;
  config: Config;
  embedder: Embedder;
  log: Log;
  sets: EvalSets;
};

/**
 * The configuration (the offline embedder, whatever the environment says: the figures are about
 * this service; no rate limits), its embedder, a quiet log and the eval sets — from `EVAL_DIR`
 * when this checkout is not beside `shared/` (a worktree elsewhere).
 */
export async function benchSetup(): Promise<BenchSetup> {
  const env = Deno.env.toObject();
  const config = loadConfig({ ...NO_RATE_LIMITS, ...env, EMBEDDER: "offline" });
  const embedder = await createEmbedder(config.embedding);
  const sets = await readEvalSets(
    env.EVAL_DIR ?? new URL("../../../shared/eval", import.meta.url).pathname,
  );
  return { env, config, embedder, log: createLog("error"), sets };
}

/** The bench's queries: SciFact claims and SQuAD questions in turn, the first `n`. */
export function benchQueries(sets: EvalSets, n = Infinity): string[] {
  return interleave(
    sets.scifact.queries.map((q) => q.query),
    sets.squad.queries.map((q) => q.query),
  ).slice(0, n);
}

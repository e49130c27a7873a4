/**
 * `deno task bench:scale [--hub-wikis 1000] [--hub-chunks 1000000] [--calls 300] [--no-replica]
 * [--out file.json] [--db NAME [--keep] [--reuse] [--load-only]] [--no-mcp] [--no-drawn] [--replica-wikis 50]`: the scale tier of `deno task bench` alone (scripts/bench/scale_tier.ts):
 * a hub of `--hub-wikis` public wikis holding `--hub-chunks` chunks in all on a primary and a
 * streaming replica of their own, the replica's searches/s against the primary's, and MCP
 * against the direct call on the hub's largest wiki. Writes docs/bench/scale.json (or `--out`).
 * `--db NAME` loads the hub into database NAME (default `wiki_bench`); `--keep` keeps it at the
 * end; `--reuse` measures the hub a `--keep` run left there instead of loading it again (and
 * keeps it); `--load-only` loads (or finds) the hub and stops; `--no-mcp` leaves MCP out;
 * `--no-drawn` leaves out the per-wiki searches of wikis drawn by size (the largest and the
 * median wiki are searched alone either way); `--replica-wikis N` (50): how many of the largest
 * wikis the replica's comparison searches.
 */
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { EvalPage } from "./corpus.ts";
import { describeMachine } from "./machine.ts";
import { measureScale, scaleSummary } from "./scale_tier.ts";
import { benchQueries, benchSetup } from "./setup.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    "hub-wikis": { type: "string", default: "1000" },
    "hub-chunks": { type: "string", default: "1000000" },
    calls: { type: "string", default: "300" },
    "no-replica": { type: "boolean", default: false },
    out: { type: "string" },
    db: { type: "string", default: "wiki_bench" },
    keep: { type: "boolean", default: false },
    reuse: { type: "boolean", default: false },
    "load-only": { type: "boolean", default: false },
    "no-mcp": { type: "boolean", default: false },
    "no-drawn": { type: "boolean", default: false },
    "replica-wikis": { type: "string", default: "50" },
  },
});
const calls = Number(values.calls);
// A relative `--out` is the working directory's (it was read as a URL's host and failed).
const outFile = values.out
  ? resolve(values.out)
  : new URL("../../docs/bench/scale.json", import.meta.url).pathname;
const started = performance.now();
const step = (text: string) =>
  console.error(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${text}`);

const setup = await benchSetup();
const base: EvalPage[] = [
  ...setup.sets.squad.pages.map((p) => ({ ...p, path: `squad/${p.path}` })),
  ...setup.sets.scifact.pages.map((p) => ({ ...p, path: `scifact/${p.path}` })),
];
const scale = await measureScale(setup, base, benchQueries(setup.sets, Math.max(calls, 400)), {
  plan: { wikis: Number(values["hub-wikis"]), chunks: Number(values["hub-chunks"]), skew: 1.1 },
  calls,
  replica: !values["no-replica"],
  step,
  database: { name: values.db, reuse: values.reuse, keep: values.keep || values.reuse },
  loadOnly: values["load-only"],
  mcp: !values["no-mcp"],
  drawn: !values["no-drawn"],
  replicaWikis: Number(values["replica-wikis"]),
});
if (!scale) {
  step(`hub kept in database ${values.db}`);
  Deno.exit(0);
}
const results = {
  command: `deno task bench:scale ${Deno.args.join(" ")}`.trim(),
  machine: await describeMachine({}),
  ...scale,
};
await Deno.mkdir(dirname(outFile), { recursive: true });
await Deno.writeTextFile(outFile, JSON.stringify(results, null, 2) + "\n");
console.log(scaleSummary(scale).join("\n"));

/**
 * The reliability suite: real server processes on loopback, each with its own store.
 *
 *   deno run -A tests/reliability/run.ts --short   # CI: about 3 minutes, one line per check
 *   deno run -A tests/reliability/run.ts --full    # minutes of soak; writes docs/reliability.md
 *
 * Prints `check: ok <name>` or `check: FAILED <name>` (with indented detail) per check, like
 * scripts/ci/mcp_live_checks.sh, and exits non-zero when one failed. PostgreSQL comes from
 * `DATABASE_URL`, else from `scripts/setup_postgres.sh`. `--only <word>` runs the checks whose
 * group name contains the word (limits, bad-input, load, outage, partition, crash).
 */
import { parseArgs } from "node:util";
import { checkBadInput } from "./bad_input_check.ts";
import type { RunContext, Verdict } from "./check.ts";
import { checkCrashDuringImport, checkPostgresOutage, restorePostgres } from "./fault_checks.ts";
import { stopAll, withDeadline } from "./harness.ts";
import { checkLimits, checkSharedLimits } from "./limits_check.ts";
import { checkLoad } from "./load_check.ts";
import { checkPartition } from "./partition_check.ts";
import { writeFigures } from "./figures.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    short: { type: "boolean", default: false },
    full: { type: "boolean", default: false },
    only: { type: "string" },
  },
});
const mode = values.full ? "full" : "short";

/** The checks in order, each a group of verdicts with its own time bound. */
const groups: {
  name: string;
  verdicts: number;
  seconds: number;
  run: (c: RunContext) => Promise<void>;
}[] = [
  { name: "limits", verdicts: 3, seconds: 90, run: checkLimits },
  { name: "limits-shared", verdicts: 1, seconds: 90, run: checkSharedLimits },
  { name: "bad-input", verdicts: 2, seconds: 240, run: (c) => checkBadInput(c) },
  {
    name: "load",
    verdicts: 2,
    seconds: mode === "full" ? 1500 : 150,
    run: (c) => checkLoad(c, mode === "full" ? ["pglite", "postgres"] : ["pglite"]),
  },
  { name: "outage", verdicts: 3, seconds: 210, run: checkPostgresOutage },
  { name: "partition", verdicts: 2, seconds: 150, run: checkPartition },
  {
    name: "crash",
    verdicts: 2,
    seconds: 300,
    run: (c) => checkCrashDuringImport(c, ["pglite", "postgres"]),
  },
];

async function postgresUrl(): Promise<string | undefined> {
  const given = Deno.env.get("DATABASE_URL");
  if (given) return given;
  try {
    const out = await new Deno.Command("bash", {
      args: ["scripts/setup_postgres.sh"],
      cwd: new URL("../../", import.meta.url),
      stdout: "piped",
      stderr: "null",
    }).output();
    return new TextDecoder().decode(out.stdout).trim().split("\n").at(-1) || undefined;
  } catch {
    return undefined;
  }
}

let failed = 0;
const ctx: RunContext = {
  mode,
  databaseUrl: await postgresUrl(),
  figures: new Map(),
  verdict(v: Verdict) {
    if (!v.ok) failed++;
    console.log(`check: ${v.ok ? "ok" : "FAILED"} ${v.name}`);
    if (v.detail && (!v.ok || mode === "full")) {
      console.log(v.detail.split("\n").map((l) => `    ${l}`).join("\n"));
    }
  },
};

// Interrupted, the run still leaves no server running and PostgreSQL started.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    await stopAll();
    await restorePostgres().catch(() => {});
    Deno.exit(130);
  });
}

const started = performance.now();
for (const group of groups) {
  if (values.only && !group.name.includes(values.only)) continue;
  let reported = 0;
  const counting: RunContext = {
    ...ctx,
    verdict: (v) => {
      reported++;
      ctx.verdict(v);
    },
  };
  const groupStarted = performance.now();
  try {
    await withDeadline(group.seconds, () => group.run(counting));
    // Each group's time, for the CI log: where the suite's minutes go.
    console.log(`${group.name} took ${Math.round((performance.now() - groupStarted) / 1000)} s`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await stopAll();
    await restorePostgres().catch((e) => console.error(`PostgreSQL not restarted: ${e}`));
    for (let i = reported; i < group.verdicts; i++) {
      ctx.verdict({ name: `${group.name}: check ${i + 1} did not run`, ok: false, detail: reason });
    }
  }
}
await restorePostgres().catch((e) => console.error(`PostgreSQL not restarted: ${e}`));
const seconds = Math.round((performance.now() - started) / 1000);
console.log(`reliability suite (${mode}) took ${seconds} s`);
// A partial full run (`--only`) rewrites its own sections of the figures and keeps the rest.
if (mode === "full") await writeFigures(ctx, seconds, values.only);
Deno.exit(failed > 0 ? 1 : 0);

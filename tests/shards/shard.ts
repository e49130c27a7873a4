/**
 * `deno task test` runs the suite as a few shards instead of one test module per file. Each test
 * module runs in a fresh isolate, and a fresh isolate pays about four seconds of CPU before its
 * first test: loading the app's module graph (the MCP SDK, Hono, zod, PGlite's JavaScript) and
 * opening a PGlite store (its WebAssembly Postgres compiled and started). Over ninety files that
 * was about half the suite's CPU. A shard imports its share of the test files into one isolate,
 * so the graph loads once per shard and the files' tests share the pooled stores of
 * `tests/helpers.ts`. Shards are balanced by each file's measured time (`weights.json`, seconds,
 * from a run of the suite; a file not listed counts as the median) and `--parallel` runs them
 * side by side, as many at once as the machine has cores.
 *
 * The browser journeys (`deno task test:browser`) run as shards too, `browser_<n>.ts`, for the
 * same reasons and one more: a shard's tests share one Chromium (`tests/live_app.ts`).
 *
 * Running one file alone is unchanged: `deno test --allow-all tests/pages_test.ts`.
 */
import browserWeights from "./browser_weights.json" with { type: "json" };
import weights from "./weights.json" with { type: "json" };

/** How many shards the suite is cut into: enough to keep the cores busy to the end. */
export const SHARD_COUNT = 8;

const ROOT = new URL("../../", import.meta.url);

/**
 * How many shards the browser journeys are cut into: one per core. A journey waits on Chromium
 * most of the time, and Chromium works on the other core.
 */
export const BROWSER_SHARD_COUNT = 2;

/** Folders the suite's files are not in: the browser journeys run apart (`deno task test:browser`). */
const SKIPPED = new Set(["data", "node_modules", "fixtures", "shards", "vendor", ".git"]);

/** Deno's own pattern for a test module (`*_test.ts`, `*.test.tsx`, `test.js`, …). */
const TEST_MODULE = /(^|\/|[_.])test\.(ts|tsx|mts|js|mjs|jsx)$/;

/** The suite's test files, found as Deno finds them, browser journeys apart. */
export function suiteFiles(dir = "", found: string[] = []): string[] {
  for (const entry of Deno.readDirSync(new URL(dir || ".", ROOT))) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory && !SKIPPED.has(entry.name)) suiteFiles(`${path}/`, found);
    if (entry.isFile && TEST_MODULE.test(path) && !/_browser_test\.\w+$/.test(path)) {
      found.push(path);
    }
  }
  return found.sort();
}

/** Cuts the files into `count` shards of near-equal time: the longest file goes to the lightest shard. */
export function shards(
  files: string[],
  count = SHARD_COUNT,
  seconds: Record<string, number> = weights,
): string[][] {
  const known = Object.values(seconds).sort((a, b) => a - b);
  const median = known[Math.floor(known.length / 2)] ?? 1;
  const weightOf = (f: string) => seconds[f] ?? median;
  const bins = Array.from({ length: count }, () => ({ files: [] as string[], total: 0 }));
  const byWeight = [...files].sort((a, b) => weightOf(b) - weightOf(a) || a.localeCompare(b));
  for (const file of byWeight) {
    const lightest = bins.reduce((min, bin) => bin.total < min.total ? bin : min);
    lightest.files.push(file);
    lightest.total += weightOf(file);
  }
  return bins.map((bin) => bin.files.sort());
}

/** The browser journeys: `tests/*_browser_test.ts`. */
export function browserFiles(): string[] {
  return [...Deno.readDirSync(new URL("tests/", ROOT))]
    .filter((entry) => entry.isFile && /_browser_test\.ts$/.test(entry.name))
    .map((entry) => `tests/${entry.name}`)
    .sort();
}

/**
 * Imports the test files of the shard named by the calling module: `shard_<n>.ts` (the suite)
 * or `browser_<n>.ts` (the browser journeys), from 1.
 */
export async function loadShard(shardUrl: string): Promise<void> {
  const [, kind, number] = /(shard|browser)_(\d+)\.ts$/.exec(shardUrl) ?? [];
  const count = kind === "browser" ? BROWSER_SHARD_COUNT : SHARD_COUNT;
  const n = Number(number);
  if (!Number.isInteger(n) || n < 1 || n > count) throw new Error(`not a shard: ${shardUrl}`);
  const cut = kind === "browser"
    ? shards(browserFiles(), count, browserWeights)
    : shards(suiteFiles(), count);
  for (const file of cut[n - 1]!) await import(new URL(file, ROOT).href);
}

/**
 * Load and soak: mixed traffic at a fixed rate from a separate process for a while; the error
 * rate, latency percentiles, and the server's RSS from start to end.
 */
import { addFigures, type RunContext } from "./check.ts";
import { loadAverage, makeStore, rssMiB, seedFixtures, sleep, startServer } from "./harness.ts";

type LoadResult = {
  sent: number;
  seconds: number;
  achieved_rate: number;
  ok: number;
  errors: number;
  statuses: Record<string, number>;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  by_kind: Record<string, { n: number; p50: number; p95: number }>;
};

/** At most this share of requests may fail. */
const MAX_ERROR_RATE = 0.01;

/** Runs the load on each store kind: short, 30 s at 20 req/s; full, 5 min at 20 req/s. */
export async function checkLoad(
  ctx: RunContext,
  kinds: ("pglite" | "postgres")[],
): Promise<void> {
  const { rate, seconds } = ctx.mode === "full"
    ? { rate: 20, seconds: 300 }
    : { rate: 20, seconds: 30 };
  const results: { kind: string; load: LoadResult; rss: number[]; machine: number[] }[] = [];
  for (const kind of kinds) {
    if (kind === "postgres" && !ctx.databaseUrl) continue;
    const store = await makeStore(kind, ctx.databaseUrl);
    try {
      const fixtures = await seedFixtures(store, 40);
      const server = await startServer({
        ...store.env,
        RATE_LIMIT_ANON_PER_MINUTE: "100000000",
        RATE_LIMIT_TOKEN_PER_MINUTE: "100000000",
      });
      try {
        // Warm up (JIT, caches) so the start figure is the steady state's, not the cold one.
        await runClient(server.url, fixtures, 10, 3);
        const rss = [await rssMiB(server.pid)];
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            await sleep(5000);
            if (sampling) rss.push(await rssMiB(server.pid).catch(() => NaN));
          }
        })();
        const machine = [await loadAverage()];
        const load = await runClient(server.url, fixtures, rate, seconds);
        machine.push(await loadAverage());
        sampling = false;
        await sampler;
        rss.push(await rssMiB(server.pid));
        results.push({ kind, load, rss, machine });
      } finally {
        await server.stop();
      }
    } finally {
      await store.dispose();
    }
  }
  const describe = (r: typeof results[number]) =>
    `${r.kind}: ${r.load.sent} requests in ${r.load.seconds} s (${r.load.achieved_rate}/s), ` +
    `${r.load.errors} errors, p50 ${r.load.p50} ms, p95 ${r.load.p95} ms, p99 ${r.load.p99} ms, ` +
    `RSS ${r.rss[0]} → ${r.rss.at(-1)} MiB`;
  // Samples every 5 s: the first and the last minute's means show a trend past GC's sawtooth.
  const memory = (r: typeof results[number]) => {
    const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
    return `RSS at start ${r.rss[0]} MiB, peak ${Math.max(...r.rss)} MiB, at end ` +
      `${r.rss.at(-1)} MiB; mean of the first minute ${mean(r.rss.slice(0, 12))} MiB, of the ` +
      `last ${mean(r.rss.slice(-12))} MiB`;
  };
  ctx.verdict({
    name: `load: ${rate} req/s of mixed traffic for ${seconds} s, under 1% errors`,
    ok: results.length > 0 &&
      results.every((r) => r.load.errors <= r.load.sent * MAX_ERROR_RATE),
    detail: results.map((r) =>
      `${describe(r)}; statuses ${JSON.stringify(r.load.statuses)}; load average ` +
      `${r.machine.join(" → ")}`
    )
      .join("\n"),
  });
  // Only a runaway leak fails this: RSS at the end within twice the start plus 100 MiB.
  ctx.verdict({
    name: "load: the server's memory stays bounded",
    ok: results.length > 0 && results.every((r) => r.rss.at(-1)! <= 2 * r.rss[0]! + 100),
    detail: results.map((r) => `${r.kind}: RSS samples ${r.rss.join(" ")} MiB`).join("\n"),
  });
  for (const r of results) {
    addFigures(
      ctx,
      "Load and soak",
      `- ${describe(r)}; statuses ${JSON.stringify(r.load.statuses)}; max ${r.load.max} ms.`,
      `- ${memory(r)}.`,
      `- The machine's load average (${navigator.hardwareConcurrency} cores, shared): ` +
        `${r.machine[0]} at the start, ` +
        `${r.machine[1]} at the end.`,
      "",
      "  | call | n | p50 ms | p95 ms |",
      "  | ---- | -: | -----: | -----: |",
      ...Object.entries(r.load.by_kind).map(([k, v]) =>
        `  | ${k} | ${v.n} | ${v.p50} | ${v.p95} |`
      ),
      "",
    );
  }
}

async function runClient(
  url: string,
  fixtures: { token: string; publicWiki: string; space: string; pages: string[] },
  rate: number,
  seconds: number,
): Promise<LoadResult> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./load_client.ts", import.meta.url).pathname,
      JSON.stringify({ url, rate, seconds, ...fixtures }),
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  if (!out.success) {
    throw new Error(`load client failed: ${new TextDecoder().decode(out.stderr).slice(-500)}`);
  }
  return JSON.parse(text.split("\n").at(-1)!) as LoadResult;
}

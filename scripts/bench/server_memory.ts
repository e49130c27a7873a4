import { round } from "../../src/search/metrics.ts";
import { type Latency, measureLatency } from "./latency.ts";
import { readProc } from "./machine.ts";
import { freePort } from "./stores.ts";
import { NO_RATE_LIMITS } from "./mcp_overhead.ts";
import { connectMcpSearch } from "./sdk_client.ts";

/** Resident memory of the server process, in MiB. */
export type ServerMemory = {
  store: string;
  start_s: number;
  idle_rss_mib: number;
  load_peak_rss_mib: number;
  peak_hwm_mib: number;
  after_load_rss_mib: number;
  load: Latency;
};

const root = new URL("../../", import.meta.url).pathname;

/**
 * Starts the real server (`deno run … main.ts`, as `deno task start` does) on a loopback
 * port over the given store, reads its VmRSS from /proc once it is ready and idle, then
 * under `concurrency` MCP clients searching `wikiId`, and stops it.
 */
export async function measureServerMemory(
  store: { name: string; env: Record<string, string> },
  wikiId: string,
  queries: string[],
  concurrency: number,
  maxSeconds: number,
): Promise<ServerMemory> {
  const port = freePort();
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    ...NO_RATE_LIMITS,
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    SEED_DOCS: "false",
    LOG_LEVEL: "error",
    ...store.env,
  };
  if (!store.env.DATABASE_URL) delete env.DATABASE_URL;
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--allow-write",
      "--allow-sys",
      "main.ts",
    ],
    cwd: root,
    env,
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let log = "";
  (async () => {
    for (;;) {
      const { value, done } = await stderr.read();
      if (done) break;
      log = (log + value).slice(-4000);
    }
  })();
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitReady(base, child, () => log);
    const startSeconds = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 2000));
    const idle = await readMemory(child.pid);
    const clients = await Promise.all(
      Array.from({ length: concurrency }, () => connectMcpSearch(base, wikiId)),
    );
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, (await readMemory(child.pid)).rss);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    let i = 0;
    const load = await measureLatency(
      queries,
      (q) => clients[i++ % concurrency]!.search(q),
      concurrency,
      { maxSeconds, warmup: 0 },
    );
    sampling = false;
    await sampler;
    const after = await readMemory(child.pid);
    await Promise.all(clients.map((c) => c.close()));
    return {
      store: store.name,
      start_s: round(startSeconds),
      idle_rss_mib: idle.rss,
      load_peak_rss_mib: Math.max(peak, after.rss),
      peak_hwm_mib: after.hwm,
      after_load_rss_mib: after.rss,
      load,
    };
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
}

/** VmRSS and VmHWM of a process, in MiB (Linux /proc). */
async function readMemory(pid: number): Promise<{ rss: number; hwm: number }> {
  const status = await readProc(`/proc/${pid}/status`);
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rss: round(kib("VmRSS") / 1024), hwm: round(kib("VmHWM") / 1024) };
}

async function waitReady(base: string, child: Deno.ChildProcess, log: () => string) {
  let exited = false;
  child.status.then(() => exited = true);
  const deadline = performance.now() + 120_000;
  while (performance.now() < deadline) {
    if (exited) throw new Error(`The server exited during start-up:\n${log()}`);
    try {
      const res = await fetch(`${base}/readyz`);
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The server was not ready within 120 s:\n${log()}`);
}

import { createApp } from "../../src/app.ts";
import type { Deps } from "../../src/deps.ts";
import { quantile, round } from "../../src/search/metrics.ts";
import { searchWikis } from "../../src/search/search_wikis.ts";
import { type Latency, measureLatency, type RunLimits } from "./latency.ts";
import { connectPlainSearch } from "./plain_client.ts";
import { connectMcpSearch } from "./sdk_client.ts";
import { storedAnswerServer } from "./stored_answer.ts";

export { connectPlainSearch };

/** A benchmark is not a client to protect: no request budget. */
export const NO_RATE_LIMITS = {
  RATE_LIMIT_ANON_PER_MINUTE: "100000000",
  RATE_LIMIT_TOKEN_PER_MINUTE: "100000000",
};

/** MCP `search` against the direct call, and their ratios. */
export type McpOverhead = {
  store: string;
  wiki: string;
  direct: Latency;
  /** Through the MCP TypeScript SDK's client (the real client: its own cost included). */
  mcp: Latency;
  /** The median of `ratios`: the figure to quote for the SDK's client. */
  ratio_p50: number;
  ratio_throughput: number;
  /** MCP (SDK client) p50 / direct p50 of each repetition, in order. */
  ratios: number[];
  /**
   * Through a plain JSON-RPC-over-HTTP client (`connectPlainSearch`: what a hosted assistant
   * sends, a POST and a JSON answer parsed): the service's own fixed cost, without the SDK
   * client's. Its ratio is the median of `ratios_plain`, in the same repetitions.
   */
  mcp_plain: Latency;
  ratio_plain_p50: number;
  ratios_plain: number[];
  /**
   * Process CPU time per call (`process.cpuUsage`, user + system, ms) of each leg in the
   * median repetition: the bench process holds the client and the server, so the MCP legs
   * count both; the PostgreSQL server's own CPU is not counted. Steadier than latency on a
   * shared machine.
   */
  cpu_ms_per_call: {
    direct: number;
    mcp: number;
    mcp_plain: number;
    mcp_apart: number;
    /** The plain and the SDK client against the stored-answer server (no service behind). */
    floor_plain: number;
    floor_sdk: number;
  };
  /**
   * The plain client again, in a Web Worker (`mcp_client_worker.ts`): its own isolate, heap,
   * event loop and thread, as a client process of its own has; the server stays in this one.
   * Its ratio is the median of `ratios_apart`, in the same repetitions. The in-process figures
   * above are kept beside it: there the client's `fetch`, parse and garbage are the server's.
   */
  mcp_apart: Latency;
  ratio_apart_p50: number;
  ratios_apart: number[];
  /**
   * The server's own time per call of the plain client's leg: from the HTTP server handing the
   * request to the app to the app's response in hand (routing, middleware, the rate limit, the
   * tool, its checks, the answer serialised), without the client, `fetch` or the HTTP exchange.
   * p50 of the median repetition; its ratio to the direct call's p50 is the median of
   * `ratios_server`, in the same repetitions.
   */
  server_p50_ms: number;
  ratio_server_p50: number;
  ratios_server: number[];
  /**
   * What HTTP alone costs here: the plain client's exchange (`fetch`, the answer read and
   * parsed) with a server that answers a stored copy of the same MCP answer without work. p50
   * of the median repetition.
   */
  http_floor_p50_ms: number;
  /**
   * The SDK client's own time per call: its p50 against the same stored-answer server, less the
   * plain client's there (`http_floor_p50_ms`): what it does beyond sending the request and
   * parsing the answer (its checks of each result), measured with no service behind it. p50s of
   * the median repetition.
   */
  sdk_floor_p50_ms: number;
  sdk_client_own_ms: number;
  /**
   * MCP/direct p50 with the SDK client, its own time taken out: per repetition, (the SDK
   * client's p50 − its own time in that repetition) / the direct call's p50; the median of
   * `ratios_sdk_own_out`. The SDK client's figure (`ratio_p50`) stays beside it.
   */
  ratio_sdk_own_out_p50: number;
  ratios_sdk_own_out: number[];
};

/** Latency of `call` over `inputs` (one caller), and the process CPU time it took per call. */
async function timedLeg(
  inputs: string[],
  call: (input: string) => Promise<unknown>,
  limits: RunLimits,
): Promise<{ latency: Latency; cpu: number }> {
  for (const input of inputs.slice(0, limits.warmup ?? 5)) await call(input);
  const before = process.cpuUsage();
  const latency = await measureLatency(inputs, call, 1, { ...limits, warmup: 0 });
  const used = process.cpuUsage(before);
  return { latency, cpu: round((used.user + used.system) / 1000 / latency.calls) };
}

/**
 * One leg of the plain client in `worker`: its latency, and the process's CPU time per call as
 * the worker measured it (its thread and the server's both: one process).
 */
async function workerLeg(
  worker: Worker,
  leg: { base: string; wikiId: string; queries: string[]; warmup: number },
): Promise<{ latency: Latency; cpu: number }> {
  const answer = await new Promise<{ latency?: Latency; cpu?: number; error?: string }>(
    (resolve) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.postMessage(leg);
    },
  );
  if (!answer.latency) throw new Error(`the worker's client failed: ${answer.error}`);
  return { latency: answer.latency, cpu: round(answer.cpu!) };
}

/**
 * The protocol's cost: the same queries, one at a time, through `searchWikis` directly and
 * through MCP `search` on `/mcp/w/<wikiId>/` over loopback HTTP (the app served in this
 * process, the real SDK client: a stateless server per request, JSON-RPC, zod validation of
 * input and output), and again through a plain JSON-RPC client (`connectPlainSearch`), in this
 * process and in a worker of its own, `repetitions` times in turn (direct, SDK client, plain
 * client, plain client apart, direct…) so that a burst of
 * other work on the machine weighs on all alike. `ratio_p50` (SDK client) and `ratio_plain_p50`
 * are the medians of the repetitions' ratios; `direct`, `mcp`, `mcp_plain` and the CPU times
 * are the figures of the repetition with the median SDK ratio. Beside them, the server's own
 * time per call of the plain client's leg (`server_p50_ms`), the HTTP exchange alone with a
 * server that answers without work (`http_floor_p50_ms`), and the SDK client's own time against
 * that server (`sdk_client_own_ms`), taken out of its figure in `ratio_sdk_own_out_p50`. The
 * wiki must be public.
 */
export async function measureMcpOverhead(
  deps: Deps,
  wikiId: string,
  queries: string[],
  limits: RunLimits = {},
  repetitions = 5,
): Promise<McpOverhead> {
  const app = createApp(deps);
  // The app's own time per request, as the HTTP server sees it (`server_p50_ms`).
  const served: number[] = [];
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req, info) => {
      const start = performance.now();
      const response = await app.fetch(req, info);
      served.push(performance.now() - start);
      return response;
    },
  );
  const base = `http://127.0.0.1:${http.addr.port}`;
  const client = await connectMcpSearch(base, wikiId);
  const plain = await connectPlainSearch(base, wikiId);
  const floor = await storedAnswerServer(base, wikiId, queries[0] ?? "");
  const apart = new Worker(new URL("./mcp_client_worker.ts", import.meta.url).href, {
    type: "module",
  });
  try {
    const runs = [];
    const run = { warmup: 20, ...limits };
    for (let r = 0; r < repetitions; r++) {
      const direct = await timedLeg(
        queries,
        (q) => searchWikis(deps, [wikiId], { query: q, limit: 10 }),
        run,
      );
      const mcp = await timedLeg(queries, client.search, run);
      served.length = 0;
      const viaPlain = await timedLeg(queries, plain.search, run);
      // The warm-up's requests are the first ones served: the timed calls are the last.
      const server = quantile(served.slice(-viaPlain.latency.calls), 0.5);
      const floorLeg = await timedLeg(queries, floor.call, run);
      const sdkFloor = await timedLeg(queries, floor.sdkCall, run);
      const sdkOwn = sdkFloor.latency.p50_ms - floorLeg.latency.p50_ms;
      const viaApart = await workerLeg(apart, { base, wikiId, queries, warmup: run.warmup });
      runs.push({
        direct,
        mcp,
        plain: viaPlain,
        apart: viaApart,
        ratio: round(mcp.latency.p50_ms / direct.latency.p50_ms),
        ratioPlain: round(viaPlain.latency.p50_ms / direct.latency.p50_ms),
        ratioApart: round(viaApart.latency.p50_ms / direct.latency.p50_ms),
        server: round(server),
        ratioServer: round(server / direct.latency.p50_ms),
        floor: floorLeg,
        sdkFloor,
        sdkOwn: round(sdkOwn),
        ratioSdkOwnOut: round((mcp.latency.p50_ms - sdkOwn) / direct.latency.p50_ms),
      });
    }
    const middle = (values: number[]) => values.toSorted((a, b) => a - b)[values.length >> 1]!;
    const median = runs.toSorted((a, b) => a.ratio - b.ratio)[runs.length >> 1]!;
    return {
      store: deps.db.kind,
      wiki: wikiId,
      direct: median.direct.latency,
      mcp: median.mcp.latency,
      ratio_p50: median.ratio,
      ratio_throughput: round(median.direct.latency.calls_per_s / median.mcp.latency.calls_per_s),
      ratios: runs.map((r) => r.ratio),
      mcp_plain: median.plain.latency,
      ratio_plain_p50: middle(runs.map((r) => r.ratioPlain)),
      ratios_plain: runs.map((r) => r.ratioPlain),
      cpu_ms_per_call: {
        direct: median.direct.cpu,
        mcp: median.mcp.cpu,
        mcp_plain: median.plain.cpu,
        mcp_apart: median.apart.cpu,
        floor_plain: median.floor.cpu,
        floor_sdk: median.sdkFloor.cpu,
      },
      mcp_apart: median.apart.latency,
      ratio_apart_p50: middle(runs.map((r) => r.ratioApart)),
      ratios_apart: runs.map((r) => r.ratioApart),
      server_p50_ms: median.server,
      ratio_server_p50: middle(runs.map((r) => r.ratioServer)),
      ratios_server: runs.map((r) => r.ratioServer),
      http_floor_p50_ms: median.floor.latency.p50_ms,
      sdk_floor_p50_ms: median.sdkFloor.latency.p50_ms,
      sdk_client_own_ms: median.sdkOwn,
      ratio_sdk_own_out_p50: middle(runs.map((r) => r.ratioSdkOwnOut)),
      ratios_sdk_own_out: runs.map((r) => r.ratioSdkOwnOut),
    };
  } finally {
    await floor.close();
    apart.terminate();
    await client.close();
    await http.shutdown();
  }
}

import { Client, StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/client@2.4.0";
import { createApp } from "../../src/app.ts";
import type { Deps } from "../../src/deps.ts";
import { round } from "../../src/search/metrics.ts";
import { searchWikis } from "../../src/search/search_wikis.ts";
import { type Latency, measureLatency, type RunLimits } from "./latency.ts";

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
  mcp: Latency;
  /** The median of `ratios`: the figure to quote. */
  ratio_p50: number;
  ratio_throughput: number;
  /** MCP p50 / direct p50 of each repetition, in order. */
  ratios: number[];
};

/** An MCP client of `/mcp/w/<wikiId>/` on a given base URL: one `search` call per query. */
export async function connectMcpSearch(baseUrl: string, wikiId: string) {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp/w/${wikiId}/`)));
  return {
    search: async (query: string) => {
      const result = await client.callTool({ name: "search", arguments: { query, limit: 10 } });
      if (result.isError) throw new Error(JSON.stringify(result.content));
    },
    close: () => client.close(),
  };
}

/**
 * The protocol's cost: the same queries, one at a time, through `searchWikis` directly and
 * through MCP `search` on `/mcp/w/<wikiId>/` over loopback HTTP (the app served in this
 * process, the real SDK client: a stateless server per request, JSON-RPC, zod validation of
 * input and output), `repetitions` times in turn (direct, MCP, direct, MCP…) so that a burst of
 * other work on the machine weighs on both alike. `ratio_p50` is the median of the
 * repetitions' ratios; `direct` and `mcp` are the figures of the median repetition. The wiki
 * must be public.
 */
export async function measureMcpOverhead(
  deps: Deps,
  wikiId: string,
  queries: string[],
  limits: RunLimits = {},
  repetitions = 5,
): Promise<McpOverhead> {
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    createApp(deps).fetch,
  );
  const client = await connectMcpSearch(`http://127.0.0.1:${http.addr.port}`, wikiId);
  try {
    const runs: { direct: Latency; mcp: Latency; ratio: number }[] = [];
    for (let r = 0; r < repetitions; r++) {
      const direct = await measureLatency(
        queries,
        (q) => searchWikis(deps, [wikiId], { query: q, limit: 10 }),
        1,
        { warmup: 20, ...limits },
      );
      const mcp = await measureLatency(queries, client.search, 1, { warmup: 20, ...limits });
      runs.push({ direct, mcp, ratio: round(mcp.p50_ms / direct.p50_ms) });
    }
    const median = runs.toSorted((a, b) => a.ratio - b.ratio)[Math.floor(runs.length / 2)]!;
    return {
      store: deps.db.kind,
      wiki: wikiId,
      direct: median.direct,
      mcp: median.mcp,
      ratio_p50: median.ratio,
      ratio_throughput: round(median.direct.calls_per_s / median.mcp.calls_per_s),
      ratios: runs.map((r) => r.ratio),
    };
  } finally {
    await client.close();
    await http.shutdown();
  }
}

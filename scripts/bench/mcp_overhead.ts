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
  ratio_p50: number;
  ratio_throughput: number;
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
 * process, the real SDK client: a fresh stateless server and transport per request,
 * JSON-RPC, zod validation of input and output). The wiki must be public.
 */
export async function measureMcpOverhead(
  deps: Deps,
  wikiId: string,
  queries: string[],
  limits: RunLimits = {},
): Promise<McpOverhead> {
  const direct = await measureLatency(
    queries,
    (q) => searchWikis(deps, [wikiId], { query: q, limit: 10 }),
    1,
    { warmup: 20, ...limits },
  );
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    createApp(deps).fetch,
  );
  const client = await connectMcpSearch(`http://127.0.0.1:${http.addr.port}`, wikiId);
  try {
    const mcp = await measureLatency(queries, client.search, 1, { warmup: 20, ...limits });
    return {
      store: deps.db.kind,
      wiki: wikiId,
      direct,
      mcp,
      ratio_p50: round(mcp.p50_ms / direct.p50_ms),
      ratio_throughput: round(direct.calls_per_s / mcp.calls_per_s),
    };
  } finally {
    await client.close();
    await http.shutdown();
  }
}

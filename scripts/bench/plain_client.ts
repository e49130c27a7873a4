/**
 * A plain JSON-RPC client of `/mcp/w/<wikiId>/`, as a hosted assistant's connector calls it:
 * `initialize` and `notifications/initialized` once, then each `search` a POST with the headers
 * such clients send (`MCP-Protocol-Version` 2025-11-25, JSON and SSE accepted), its JSON answer
 * parsed and checked. No SDK: what it costs is the service's, plus `fetch` and `JSON.parse`.
 */
export async function connectPlainSearch(baseUrl: string, wikiId: string) {
  const url = `${baseUrl}/mcp/w/${wikiId}/`;
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PLAIN_REVISION,
  };
  let id = 0;
  const post = async (message: Record<string, unknown>) => {
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(message) });
    if (response.status === 202) return await response.body?.cancel();
    const answer = await response.json();
    if (answer.error || answer.result?.isError) throw new Error(JSON.stringify(answer));
    return answer.result;
  };
  await post({
    jsonrpc: "2.0",
    id: ++id,
    method: "initialize",
    params: {
      protocolVersion: PLAIN_REVISION,
      capabilities: {},
      clientInfo: { name: "bench-plain", version: "1" },
    },
  });
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  return {
    search: async (query: string) => {
      await post({
        jsonrpc: "2.0",
        id: ++id,
        method: "tools/call",
        params: { name: "search", arguments: { query, limit: 10 } },
      });
    },
  };
}

/** The revision the plain client speaks: the one hosted assistants send today. */
const PLAIN_REVISION = "2025-11-25";

import { connectPlainSearch } from "./plain_client.ts";
import { connectMcpSearch } from "./sdk_client.ts";

/**
 * An HTTP server on its own port that answers each `tools/call` with a stored copy of the MCP
 * answer to `query` on `/mcp/w/<wikiId>/` (taken once from `base`, the call's own id put in),
 * without work, and passes any other request (`initialize`, `tools/list`) on to `base`. Beside
 * it, the two clients of the bench calling it as they call the service: the plain client's call
 * (`fetch` with the same headers and body, the answer parsed) and the SDK client's. What a call
 * costs here is the HTTP exchange and the client's own work, which no server can go under: the
 * plain client's is `http_floor_p50_ms`, the SDK client's beyond it is that client's own cost
 * (`sdk_client_own_ms`), measured apart from the service (docs/decisions.md, "MCP's fixed cost,
 * tenth pass").
 */
export async function storedAnswerServer(base: string, wikiId: string, query: string) {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
  };
  const body = (q: string) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "search", arguments: { query: q, limit: 10 } },
    });
  const answer = await (await fetch(`${base}/mcp/w/${wikiId}/`, {
    method: "POST",
    headers,
    body: body(query),
  })).text();
  // The answer ends with its id (`…,"id":1}`): the stored text up to it, the caller's id after.
  const at = answer.lastIndexOf(`"id":1}`);
  if (at < 0) throw new Error(`unexpected MCP answer: ${answer.slice(0, 200)}`);
  const head = answer.slice(0, at + `"id":`.length);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const bytes = await req.arrayBuffer();
    const message = bytes.byteLength > 0 ? JSON.parse(new TextDecoder().decode(bytes)) : null;
    if (message?.method !== "tools/call") {
      const passed = new Headers(req.headers);
      passed.delete("host");
      return await fetch(`${base}/mcp/w/${wikiId}/`, {
        method: req.method,
        headers: passed,
        body: bytes.byteLength > 0 ? bytes : null,
      });
    }
    return new Response(`${head}${JSON.stringify(message.id)}}`, {
      headers: { "content-type": "application/json" },
    });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  // The bench's two clients, as they call the service (`initialize` is passed on to it).
  const plain = await connectPlainSearch(url, wikiId);
  const sdk = await connectMcpSearch(url, wikiId);
  return {
    /** One call as the plain client makes it. */
    call: plain.search,
    /** One call through the MCP TypeScript SDK's client. */
    sdkCall: sdk.search,
    close: async () => {
      await sdk.close();
      await server.shutdown();
    },
  };
}

import { Client, StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/client@2.4.0";

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

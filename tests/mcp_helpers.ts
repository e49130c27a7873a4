import { Client, StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/client@2.4.0";
import type { Hono } from "hono";

/** The MCP protocol revisions the endpoints serve. */
export type Revision = "2025-11-25" | "2026-07-28";

/**
 * A real MCP SDK client talking to the app in process (its fetch calls `app.request`). The
 * client speaks 2025-11-25 (`initialize`) unless pinned to another `revision`: pinned to
 * 2026-07-28 it probes with `server/discover` and sends the per-request `_meta` envelope.
 */
export async function mcpClient(
  app: Hono,
  path: string,
  token?: string,
  revision: Revision = "2025-11-25",
): Promise<Client> {
  const client = new Client({ name: "wiki-tests", version: "1.0.0" }, {
    versionNegotiation: { mode: revision === "2025-11-25" ? "legacy" : { pin: revision } },
  });
  const transport = new StreamableHTTPClientTransport(new URL(`http://localhost${path}`), {
    fetch: async (url, init) => await app.request(url.toString(), init),
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
  });
  await client.connect(transport);
  return client;
}

/** Calls a tool and returns its structured content, failing on an error result. */
export async function callOk<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

/** Calls a tool that must fail and returns the text of its error result. */
export async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  if (!result.isError) {
    throw new Error(`${name} should have failed: ${JSON.stringify(result.structuredContent)}`);
  }
  return (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
}

import { Client, StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/client@2.4.0";
import type { Hono } from "hono";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { testApp } from "./helpers.ts";

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

/** The JSON-RPC `tools/call` of `search` for "installer" with `id`, as a client sends it. */
export function searchCallBody(id: number | string = 1): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "search", arguments: { query: "installer" } },
  });
}

/**
 * POSTs `body` to the public wiki endpoint `/mcp/w/docs/` on revision 2025-11-25 (the lean
 * path's), JSON answer accepted, with `headers` added.
 */
export function postToDocs(
  app: Hono,
  body: BodyInit,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(app.request("/mcp/w/docs/", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      "mcp-protocol-version": "2025-11-25",
      ...headers,
    },
    body,
  }));
}

/** The app over `db` serving a public wiki `docs` of one page, "Setup" ("The installer."). */
export async function docsWithSetup(db: Db, env: Record<string, string> = {}): Promise<Hono> {
  const { app, deps } = testApp(db, env);
  await createWiki(db, { id: "docs", title: "Docs", visibility: "public" });
  await writePage(deps, { wikiId: "docs", path: "Setup", markdown: "# Setup\nThe installer." }, {
    source: "test",
  });
  return app;
}

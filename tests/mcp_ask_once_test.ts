import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/client@2.4.0";
import type { Hono } from "hono";
import { createToken } from "../src/auth/tokens.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";
import { person, seedPages, spaceApp } from "./space_helpers.ts";

// Issue 26.10: a question is recorded once per asking, over MCP too: a client that retries
// `ask` (or an assistant that asks again a moment later) is one asking of one asker.

/** An MCP client on the hub calling from `ip` (no credential: counted by address). */
async function hubClientFrom(app: Hono, ip: string): Promise<Client> {
  const client = new Client({ name: "wiki-tests", version: "1.0.0" }, {
    versionNegotiation: { mode: "legacy" },
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://localhost/mcp/hub"), {
      fetch: async (url, init) =>
        await app.request(url.toString(), init, {
          remoteAddr: { hostname: ip, port: 40000, transport: "tcp" },
        }),
    }),
  );
  return client;
}

const question = "How often do I turn the compost?";

Deno.test("an MCP ask retried by the same asker is recorded once; other askers are counted apart", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "notes", visibility: "public", ownerAccountId: ana.id });
  await seedPages(deps, "notes", { Compost: "# Compost\n\nTurn the heap every two weeks.\n" });
  const token = (await createToken(db, { accountId: ana.id, kind: "account", name: "cli" }))
    .token;
  const other = (await createToken(db, { accountId: ana.id, kind: "account", name: "ide" }))
    .token;

  // Ana's assistant retries the call, with a second token of hers, and in other spacing.
  const mine = await mcpClient(app, "/mcp/", token);
  await callOk(mine, "ask", { space: "notes", question });
  await callOk(mine, "ask", { space: "notes", question });
  await mine.close();
  const again = await mcpClient(app, "/mcp/", other);
  await callOk(again, "ask", { space: "notes", question: "how often  do I turn the compost?" });
  await again.close();
  // Anonymous callers on the hub and on the wiki's own endpoint, by address.
  const hub = await hubClientFrom(app, "192.0.2.10");
  await callOk(hub, "ask", { wiki: "notes", question });
  await callOk(hub, "ask", { wiki: "notes", question });
  await hub.close();
  const elsewhere = await hubClientFrom(app, "192.0.2.11");
  await callOk(elsewhere, "ask", { wiki: "notes", question });
  await elsewhere.close();

  const rows = await db<{ via: string; asker: string | null }>`
    SELECT via, asker FROM ask_questions ORDER BY id`;
  assert.equal(rows.length, 3, "Ana once, each address once");
  assert.ok(rows.every((r) => r.via === "mcp" && r.asker !== null));
  assert.equal(new Set(rows.map((r) => r.asker)).size, 3);
  const [counted] = await db<{ n: number }>`
    SELECT sum(count)::int AS n FROM usage_daily WHERE kind = 'ask'`;
  assert.equal(counted!.n, 3);
});

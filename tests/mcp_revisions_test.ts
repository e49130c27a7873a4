import assert from "node:assert/strict";
import type { Client } from "npm:@modelcontextprotocol/client@2.4.0";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";
import { mcpClient, type Revision } from "./mcp_helpers.ts";
import { usageWritten } from "../src/usage/usage_writes.ts";

const REVISIONS: Revision[] = ["2026-07-28", "2025-11-25"];

/** A public wiki, a private space and an account token that reaches it. */
async function world(db: Db) {
  const deps = testDeps(db);
  await createWiki(db, { id: "garden", title: "Garden", visibility: "public" });
  const ana = await createAccount(db, { email: "ana@example.com" });
  await createWiki(db, { id: "ana-notes", visibility: "private", ownerAccountId: ana.id });
  const by = { source: "test" };
  await writePage(deps, {
    wikiId: "garden",
    path: "Compost",
    markdown: "# Compost\nCompost turns kitchen scraps into soil. See [[Worms]].",
  }, by);
  await writePage(deps, {
    wikiId: "garden",
    path: "Worms",
    markdown: "# Worms\nWorms speed up [[Compost]].",
  }, by);
  await writePage(deps, {
    wikiId: "ana-notes",
    path: "Plan",
    markdown: "# Plan\nThe launch is on the ninth of March.",
  }, by);
  const token = (await createToken(db, { accountId: ana.id, kind: "account", name: "laptop" }))
    .token;
  return { token };
}

/** Arguments that make each tool succeed, per endpoint; `scope` names the wiki or space. */
function argumentsFor(tool: string, scope: Record<string, string>): Record<string, unknown> {
  const page = scope.space ? "Plan" : "Compost";
  const query = scope.space ? "launch" : "compost";
  return {
    list_wikis: {},
    my_spaces: {},
    search: { ...scope, query },
    get_page: { ...scope, page },
    neighbors: { ...scope, page },
    ask: { ...scope, question: `What about ${query}?` },
    confirm_use: { ...scope, page, query },
    fetch: { id: `${scope.space ?? "garden"}/${page}` },
    list_pages: { ...scope },
    report_problem: { ...scope, page, kind: "unclear", note: "The steps could say more" },
    propose_edit: { ...scope, page, markdown: "# Plan\nThe launch moved.", base_revision: 1 },
  }[tool] ?? { ...scope };
}

/** Calls every tool the endpoint lists; the known ones must succeed. Returns their names. */
async function callEveryTool(client: Client, scope: Record<string, string>): Promise<string[]> {
  const { tools } = await client.listTools();
  const known = new Set(["list_wikis", "my_spaces", "search", "get_page", "neighbors", "ask"]);
  for (const name of ["confirm_use", "fetch", "list_pages"]) known.add(name);
  for (const tool of tools) {
    const result = await client.callTool({
      name: tool.name,
      arguments: argumentsFor(tool.name, scope),
    });
    if (known.has(tool.name)) {
      assert.ok(!result.isError, `${tool.name}: ${JSON.stringify(result.content)}`);
      assert.ok(result.structuredContent, `${tool.name} returns structured content`);
      assert.ok(result._meta?.ratelimit, `${tool.name} carries the remaining budget`);
    }
  }
  return tools.map((t) => t.name).sort();
}

for (const revision of REVISIONS) {
  Deno.test(`MCP ${revision}: the SDK client calls every tool on the hub, a wiki and the private endpoint`, async () => {
    await using db = await freshDb();
    const { token } = await world(db);
    const { app } = testApp(db);

    const hub = await mcpClient(app, "/mcp/hub/", undefined, revision);
    assert.equal(hub.getNegotiatedProtocolVersion(), revision);
    const hubTools = await callEveryTool(hub, { wiki: "garden" });
    for (const name of ["list_wikis", "search", "get_page", "neighbors", "ask"]) {
      assert.ok(hubTools.includes(name), name);
    }

    const wiki = await mcpClient(app, "/mcp/w/garden", undefined, revision);
    assert.equal(wiki.getNegotiatedProtocolVersion(), revision);
    const wikiTools = await callEveryTool(wiki, {});
    for (const name of ["search", "get_page", "neighbors", "ask"]) {
      assert.ok(wikiTools.includes(name), name);
    }

    const mine = await mcpClient(app, "/mcp/", token, revision);
    assert.equal(mine.getNegotiatedProtocolVersion(), revision);
    const privateTools = await callEveryTool(mine, { space: "ana-notes" });
    for (const name of ["my_spaces", "search", "get_page", "neighbors", "ask", "confirm_use"]) {
      assert.ok(privateTools.includes(name), name);
    }
    // A domain failure is a tool result in either revision, never a protocol error.
    const refused = await hub.callTool({ name: "search", arguments: { wiki: "nope", query: "x" } });
    assert.equal(refused.isError, true);

    // The same records under either revision: usage per wiki, audit per private call.
    await usageWritten(db);
    const usage = await db<{ wiki_id: string; kind: string; n: number }>`
      SELECT wiki_id, kind, sum(count)::int AS n FROM usage_daily
      GROUP BY wiki_id, kind ORDER BY wiki_id, kind`;
    assert.ok(usage.some((u) => u.wiki_id === "garden" && u.kind === "search" && u.n === 2));
    assert.ok(usage.some((u) => u.wiki_id === "ana-notes" && u.kind === "search" && u.n === 1));
    const audit = await db<{ action: string; outcome: string }>`
      SELECT action, outcome FROM audit_events WHERE wiki_id = 'ana-notes' ORDER BY id`;
    assert.deepEqual(
      audit.map((a) => a.action).filter((a) => a !== "my_spaces").sort(),
      privateTools.filter((t) => t !== "my_spaces").sort(),
    );
    for (const client of [hub, wiki, mine]) await client.close();
  });
}

Deno.test("MCP 2026-07-28: server/discover answers on every endpoint without tools.listChanged", async () => {
  await using db = await freshDb();
  const { token } = await world(db);
  const { app } = testApp(db);
  const cases: [string, string | undefined, string][] = [
    ["/mcp/hub/", undefined, "public"],
    ["/mcp/w/garden/", undefined, "public"],
    ["/mcp/", token, "private"],
  ];
  for (const [path, bearer, cacheScope] of cases) {
    const res = await discover(app, path, "2026-07-28", bearer);
    assert.equal(res.status, 200, path);
    const { result, id } = await res.json();
    assert.equal(id, 7);
    assert.ok(result.supportedVersions.includes("2026-07-28"), path);
    assert.deepEqual(result.capabilities.tools, { listChanged: false });
    assert.equal(result.cacheScope, cacheScope);
    assert.ok(result.ttlMs > 0);
    // The 2025 handshake no longer promises list-changed notifications either.
    const init = await app.request(path, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "t", version: "1" },
        },
      }),
    });
    const initialized = await init.json();
    assert.equal(initialized.result.protocolVersion, "2025-11-25");
    assert.deepEqual(initialized.result.capabilities.tools, { listChanged: false });
  }
});

Deno.test("MCP: an unknown revision gets the unsupported-version error with its request id", async () => {
  await using db = await freshDb();
  const { token } = await world(db);
  const { app } = testApp(db);
  for (
    const [path, bearer] of [["/mcp/hub", undefined], ["/mcp/w/garden", undefined], ["/mcp", token]]
  ) {
    const res = await discover(app, path!, "2099-01-01", bearer);
    assert.equal(res.status, 400, path);
    const body = await res.json();
    assert.equal(body.id, 7);
    assert.equal(body.error.code, -32022);
    assert.equal(body.error.data.requested, "2099-01-01");
    assert.ok(body.error.data.supported.includes("2026-07-28"));
    assert.ok(res.headers.get("ratelimit"), "the limiter counted it");
  }
  // A header that contradicts the envelope is refused (-32020), not served.
  const mismatch = await discover(app, "/mcp/hub/", "2026-07-28", undefined, "tools/list");
  assert.equal(mismatch.status, 400);
  assert.equal((await mismatch.json()).error.code, -32020);
});

function discover(
  app: ReturnType<typeof testApp>["app"],
  path: string,
  version: string,
  bearer?: string,
  methodHeader = "server/discover",
): Promise<Response> {
  return Promise.resolve(app.request(path, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": version,
      "Mcp-Method": methodHeader,
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "server/discover",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": version,
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  }));
}

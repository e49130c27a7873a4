import assert from "node:assert/strict";
import {
  isLegacyRequest,
  McpServer,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/server";
import { Client, StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/client@2.4.0";
import type { Hono } from "hono";
import { isLegacyLeanCall, leanCallOf } from "../src/kit/mcp/lean_call.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";
import { docsWithSetup, postToDocs, type Revision, searchCallBody } from "./mcp_helpers.ts";

// The lean answer to one read-only tool call (src/kit/mcp/lean_call.ts) is the SDK's answer,
// byte for byte: the same requests, as the SDK's own client sends them on each revision, go to
// the app with the lean path and to the app without it (MCP_LEAN_CALLS=false).

/** Calls of the wiki endpoint's read-only tools, good and bad, and what they are. */
const CALLS: [string, Record<string, unknown>, "ok" | "isError" | "bad arguments"][] = [
  ["search", { query: "installer" }, "ok"],
  ["search", { query: "installer", limit: 1, max_tokens: 400 }, "ok"],
  ["search", { query: "zzzqqq nothing matches" }, "ok"],
  ["search", { query: 5 }, "bad arguments"],
  ["search", {}, "bad arguments"],
  ["search", { query: "x", limit: 0 }, "bad arguments"],
  ["fetch", { id: "docs/Setup" }, "ok"],
  ["fetch", { id: "docs/No such page" }, "isError"],
  ["fetch", { id: 3 }, "bad arguments"],
  ["get_page", { page: "Setup" }, "ok"],
  ["get_page", { page: "Setup#Steps" }, "ok"],
  ["get_page", { page: "Missing" }, "isError"],
  ["get_page", { page: "Setup", extra: true }, "ok"],
  ["get_page", {}, "bad arguments"],
];

/** The same calls on the hub, each naming its wiki (and a search of every public wiki). */
const HUB_CALLS: typeof CALLS = [
  ...CALLS.map(([name, args, kind]) =>
    [name, { ...args, wiki: "docs" }, kind] as (typeof CALLS)[number]
  ),
  ["search", { query: "installer" }, "ok"],
  ["get_page", { page: "Setup", wiki: "nowhere" }, "isError"],
];

/** Each endpoint with a lean path, and the calls sent to it. */
const ENDPOINTS = [["/mcp/w/docs/", CALLS], ["/mcp/hub/", HUB_CALLS]] as const;

type Recorded = { url: string; headers: [string, string][]; body: string };

/** The `tools/call` requests the SDK's client sends for `calls` on `revision` to `path`. */
async function recordCalls(
  app: Hono,
  revision: Revision,
  path: string,
  calls: typeof CALLS,
): Promise<Recorded[]> {
  const recorded: Recorded[] = [];
  const client = new Client({ name: "lean-test", version: "1" }, {
    versionNegotiation: { mode: revision === "2025-11-25" ? "legacy" : { pin: revision } },
  });
  const transport = new StreamableHTTPClientTransport(new URL(`http://localhost${path}`), {
    fetch: async (url, init) => {
      const body = typeof init?.body === "string" ? init.body : "";
      if (body.includes('"tools/call"')) {
        recorded.push({ url: url.toString(), headers: [...new Headers(init?.headers)], body });
      }
      return await app.request(url.toString(), init);
    },
  });
  await client.connect(transport);
  try {
    for (const [name, args] of calls) await client.callTool({ name, arguments: args });
  } finally {
    await client.close();
  }
  return recorded;
}

/** What an answer says, the caller's budget (it moves between calls) and request id left out. */
async function answerOf(app: Hono, call: Recorded) {
  const response = await app.request(call.url, {
    method: "POST",
    headers: call.headers,
    body: call.body,
  });
  const headers = [...response.headers].filter(([name]) =>
    !["x-request-id", "ratelimit"].includes(name)
  );
  const body = (await response.text()).replace(/"(remaining|reset_seconds)":\d+/g, '"$1":0');
  return { status: response.status, headers, body };
}

/** How many SDK servers were connected to a transport while `work` ran. */
async function serversConnected(work: () => Promise<void>): Promise<number> {
  const connect = McpServer.prototype.connect;
  let count = 0;
  McpServer.prototype.connect = function (this: McpServer, ...args) {
    count++;
    return connect.apply(this, args);
  };
  try {
    await work();
  } finally {
    McpServer.prototype.connect = connect;
  }
  return count;
}

for (
  const [revision, [path, calls]] of (["2025-11-25", "2026-07-28"] as const).flatMap((r) =>
    ENDPOINTS.map((e) => [r, e] as const)
  )
) {
  Deno.test(`MCP ${revision} ${path}: a lean tool call answers byte for byte as the SDK does`, async () => {
    await using db = await freshDb();
    const deps = testDeps(db);
    await createWiki(db, { id: "docs", title: "Docs", visibility: "public" });
    const setup =
      "# Setup\nRun the installer with deno.\n\n## Steps\nFirst the installer, then run.";
    await writePage(deps, { wikiId: "docs", path: "Setup", markdown: setup }, { source: "test" });
    const lean = testApp(db).app;
    const sdk = testApp(db, { MCP_LEAN_CALLS: "false" }).app;
    const recorded = await recordCalls(lean, revision, path, calls);
    assert.equal(recorded.length, calls.length);
    for (const [i, call] of recorded.entries()) {
      const [name, args, kind] = calls[i]!;
      const label = `${revision} ${path} ${name} ${JSON.stringify(args)}`;
      let fromLean!: Awaited<ReturnType<typeof answerOf>>;
      const leanServers = await serversConnected(async () => {
        fromLean = await answerOf(lean, call);
      });
      const fromSdk = await answerOf(sdk, call);
      assert.deepEqual(fromLean, fromSdk, label);
      assert.equal(fromSdk.status, 200, label);
      const { result } = JSON.parse(fromSdk.body);
      assert.equal(result?.isError === true, kind !== "ok", label);
      // The lean path answered a call whose arguments pass (the SDK words the others' errors);
      // 2026-07-28 requests all go to the SDK.
      const leanTaken = revision === "2025-11-25" && kind !== "bad arguments";
      assert.equal(leanServers, leanTaken ? 0 : 1, label);
    }
  });
}

Deno.test("MCP: a lean call is counted and audited as the SDK's: usage and budget per call", async () => {
  await using db = await freshDb();
  const app = await docsWithSetup(db, { RATE_LIMIT_ANON_PER_MINUTE: "3" });
  const call = (id: number) => postToDocs(app, searchCallBody(id));
  const remaining = [];
  for (const id of [1, 2, 3]) {
    const response = await call(id);
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.equal(body.id, id);
    assert.equal(body.result.structuredContent.results[0].page, "Setup");
    remaining.push(body.result._meta.ratelimit.remaining);
  }
  assert.deepEqual(remaining, [2, 1, 0]);
  // The budget holds on the lean path: the fourth call in the minute is refused.
  assert.equal((await call(4)).status, 429);
});

Deno.test("MCP: a lean call's era is the SDK's, decided by its header without parsing the body again", async () => {
  const bodies = [
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search", arguments: {} } },
    { jsonrpc: "2.0", id: -7, method: "tools/call", params: { name: "fetch" } },
    { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "get_page", arguments: {} } },
  ];
  const versions = [null, ...SUPPORTED_PROTOCOL_VERSIONS, "2026-07-28", "2099-01-01"];
  const extras: Record<string, string>[] = [{}, { "mcp-method": "tools/call" }, {
    "mcp-name": "search",
  }];
  let decided = 0;
  for (const body of bodies) {
    for (const version of versions) {
      for (const extra of extras) {
        const headers = new Headers({ "content-type": "application/json", ...extra });
        if (version !== null) headers.set("mcp-protocol-version", version);
        const label = `${version} ${JSON.stringify(extra)} ${JSON.stringify(body)}`;
        if (!leanCallOf(body, headers, new Set(["search", "fetch", "get_page"]))) continue;
        const request = new Request("http://localhost/mcp/w/docs/", {
          method: "POST",
          headers,
          body: JSON.stringify(body),
        });
        const ours = isLegacyLeanCall(headers);
        // Undefined: left to the SDK (`Mcp-Method` or `Mcp-Name` sent).
        assert.equal(ours === undefined, Object.keys(extra).length > 0, label);
        if (ours === undefined) continue;
        assert.equal(ours, await isLegacyRequest(request, body), label);
        decided++;
      }
    }
  }
  assert.equal(decided, bodies.length * (1 + SUPPORTED_PROTOCOL_VERSIONS.length));
});

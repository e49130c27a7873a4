import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken, revokeToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createTeam } from "../src/teams/teams.ts";
import { seedDocs } from "../src/wikis/seed_docs.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp, testConfig, testDeps } from "./helpers.ts";
import { callError, callOk, mcpClient } from "./mcp_helpers.ts";

const by = { source: "test" };

/** Two public wikis, one private one owned by ana (plus a team space), and tokens. */
async function world(db: Db) {
  const deps = testDeps(db);
  await createWiki(db, {
    id: "garden",
    title: "Garden",
    visibility: "public",
    instructions: "Answer like a gardener.",
  });
  await createWiki(db, { id: "kitchen", title: "Kitchen", visibility: "public" });
  const ana = await createAccount(db, { email: "ana@example.com" });
  const bo = await createAccount(db, { email: "bo@example.com" });
  await createWiki(db, { id: "ana-notes", visibility: "private", ownerAccountId: ana.id });
  await createTeam(db, { id: "lab", ownerAccountId: ana.id });
  await createWiki(db, { id: "lab-wiki", visibility: "private", ownerTeamId: "lab" });
  await createWiki(db, { id: "bo-notes", visibility: "private", ownerAccountId: bo.id });
  const write = (wikiId: string, path: string, markdown: string) =>
    writePage(deps, { wikiId, path, markdown }, by);
  await write(
    "garden",
    "Compost",
    "# Compost\nCompost turns kitchen scraps into soil. See [[Worms]] and [[Mulch]].",
  );
  await write("garden", "Worms", "# Worms\nWorms speed up [[Compost]].");
  await write("kitchen", "Bread", "# Bread\nBread needs flour, water, salt and yeast.");
  await write("ana-notes", "Secret plan", "# Secret plan\nThe launch date is the ninth of March.");
  await write("lab-wiki", "Protocol", "# Protocol\nCentrifuge samples at four degrees.");
  await write("bo-notes", "Diary", "# Diary\nBo's private diary about centrifuge samples.");
  const account =
    (await createToken(db, { accountId: ana.id, kind: "account", name: "laptop" })).token;
  const space =
    (await createToken(db, { accountId: ana.id, kind: "space", spaceId: "ana-notes", name: "bot" }))
      .token;
  const boToken = (await createToken(db, { accountId: bo.id, kind: "account", name: "bo" })).token;
  return { ana, bo, account, space, boToken };
}

Deno.test("the hub lists public wikis and switches wiki by parameter on every call", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/hub/");
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    "ask",
    "fetch",
    "get_page",
    "list_pages",
    "list_wikis",
    "neighbors",
    "report_problem",
    "search",
  ]);
  const search = tools.find((t) => t.name === "search")!;
  assert.ok(search.annotations?.readOnlyHint);
  assert.ok(search.outputSchema);
  assert.deepEqual((search.inputSchema.required ?? []).sort(), ["query"]);
  assert.match(client.getInstructions() ?? "", /list_wikis/);

  const wikis = await callOk<{ wikis: { id: string; pages: number }[] }>(client, "list_wikis");
  assert.deepEqual(wikis.wikis.map((w) => [w.id, w.pages]), [["garden", 2], ["kitchen", 1]]);
  const inGarden = await callOk<{ results: { page: string }[] }>(client, "search", {
    wiki: "garden",
    query: "compost soil",
  });
  assert.equal(inGarden.results[0]!.page, "Compost");
  const inKitchen = await callOk<{ results: { page: string }[] }>(client, "search", {
    wiki: "kitchen",
    query: "yeast",
  });
  assert.deepEqual(inKitchen.results.map((r) => r.page), ["Bread"]);
  const page = await callOk<
    { title: string; revision: number; links: { page: string; exists: boolean }[] }
  >(
    client,
    "get_page",
    { wiki: "garden", page: "compost" },
  );
  assert.equal(page.title, "Compost");
  assert.equal(page.revision, 1);
  assert.deepEqual(page.links, [{ page: "Worms", title: "Worms", exists: true }, {
    page: "Mulch",
    title: null,
    exists: false,
  }]);
  const near = await callOk<{ neighbors: { page: string; relation: string; exists: boolean }[] }>(
    client,
    "neighbors",
    { wiki: "garden", page: "Compost" },
  );
  assert.deepEqual(near.neighbors.map((n) => [n.relation, n.page, n.exists]), [
    ["links_to", "Worms", true],
    ["links_to", "Mulch", false],
    ["linked_from", "Worms", true],
  ]);
});

Deno.test("the hub refuses unknown and private wikis with close matches, never searching elsewhere", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/hub");
  assert.match(
    await callError(client, "search", { wiki: "gardn", query: "compost" }),
    /not found; did you mean "garden"/,
  );
  const secret = await callError(client, "search", { wiki: "ana-notes", query: "launch" });
  assert.doesNotMatch(secret, /ninth of March/);
  assert.match(
    await callError(client, "get_page", { wiki: "ana-notes", page: "Secret plan" }),
    /not found/,
  );
  assert.match(
    await callError(client, "get_page", { wiki: "garden", page: "Compots" }),
    /not found/,
  );
  assert.match(await callError(client, "search", { wiki: "garden", query: "  " }), /empty/);
});

Deno.test("/mcp/w/<id>/ fixes the wiki by path, with its own instructions; private or unknown ids are 404", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/w/garden/");
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    "ask",
    "fetch",
    "get_page",
    "list_pages",
    "neighbors",
    "report_problem",
    "search",
  ]);
  assert.ok(!("wiki" in (tools[0]!.inputSchema.properties ?? {})));
  assert.match(client.getInstructions() ?? "", /Answer like a gardener/);
  const found = await callOk<{ results: { page: string; wiki: string }[] }>(client, "search", {
    query: "worms",
  });
  assert.ok(found.results.every((r) => r.wiki === "garden"));
  for (const id of ["ana-notes", "nothing"]) {
    const res = await app.request(`/mcp/w/${id}/`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(res.status, 404);
    assert.doesNotMatch(await res.text(), /launch/);
  }
});

Deno.test("the private endpoint wants a token: 401 with a challenge, invalid_token for a bad or revoked one", async () => {
  await using db = await freshDb();
  const { ana } = await world(db);
  const { app } = testApp(db);
  const post = (headers: Record<string, string>) =>
    app.request("/mcp/", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
  const none = await post({});
  assert.equal(none.status, 401);
  assert.equal(
    none.headers.get("www-authenticate"),
    'Bearer resource_metadata="http://wiki.test/.well-known/oauth-protected-resource/mcp", scope="wiki:read"',
  );
  assert.doesNotMatch(none.headers.get("www-authenticate")!, /error=/);
  for (const auth of ["Bearer wk_acct_nope", "Basic abc", "Bearer"]) {
    const bad = await post({ Authorization: auth });
    assert.equal(bad.status, 401, auth);
    assert.match(bad.headers.get("www-authenticate")!, /error="invalid_token"/);
  }
  const made = await createToken(db, { accountId: ana.id, kind: "account", name: "old" });
  assert.equal((await post({ Authorization: `Bearer ${made.token}` })).status, 200);
  await revokeToken(db, ana.id, made.record.id);
  assert.equal((await post({ Authorization: `Bearer ${made.token}` })).status, 401);
  const expiring = await createToken(db, {
    accountId: ana.id,
    kind: "account",
    name: "x",
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  assert.equal((await post({ Authorization: `Bearer ${expiring.token}` })).status, 200);
  await db`UPDATE tokens SET expires_at = now() - interval '1 second' WHERE id = ${expiring.record.id}`;
  const expired = await post({ Authorization: `Bearer ${expiring.token}` });
  assert.equal(expired.status, 401);
  assert.match(expired.headers.get("www-authenticate")!, /expired/);
  // The public endpoints never challenge, whatever Authorization says.
  const hub = await app.request("/mcp/hub/", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      Authorization: "Bearer junk",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  assert.equal(hub.status, 200);
  assert.equal(hub.headers.get("www-authenticate"), null);
});

Deno.test("an account token lists its spaces and must name one when it has several, but to search", async () => {
  await using db = await freshDb();
  const { account } = await world(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp", account);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    "ask",
    "confirm_use",
    "fetch",
    "get_page",
    "list_pages",
    "my_spaces",
    "neighbors",
    "propose_edit",
    "report_problem",
    "search",
  ]);
  const spaces = await callOk<{ spaces: { id: string; role: string }[] }>(client, "my_spaces");
  assert.deepEqual(spaces.spaces.map((s) => [s.id, s.role]), [["ana-notes", "owner"], [
    "lab-wiki",
    "owner",
  ]]);
  assert.match(
    await callError(client, "get_page", { page: "Protocol" }),
    /Name a space.*"ana-notes", "lab-wiki"/,
  );
  const found = await callOk<{ results: { page: string }[] }>(client, "search", {
    space: "lab-wiki",
    query: "centrifuge",
  });
  assert.deepEqual(found.results.map((r) => r.page), ["Protocol"]);
  assert.match(
    await callError(client, "search", { space: "bo-notes", query: "centrifuge" }),
    /not one of your spaces/,
  );
  const used = await callOk<{ uses: number; revision: number }>(client, "confirm_use", {
    space: "ana-notes",
    page: "secret plan",
    revision: 1,
    query: "when is the launch?",
  });
  assert.deepEqual(used, { recorded: true, page: "Secret plan", revision: 1, uses: 1 });
  const rows = await db<
    { credential_kind: string; client_name: string | null }
  >`SELECT * FROM page_uses`;
  assert.equal(rows[0]!.credential_kind, "account_token");
});

Deno.test("a space token reaches its own space only", async () => {
  await using db = await freshDb();
  const { space } = await world(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/", space);
  const found = await callOk<{ results: { page: string }[] }>(client, "search", {
    query: "launch date",
  });
  assert.deepEqual(found.results.map((r) => r.page), ["Secret plan"]);
  assert.match(
    await callError(client, "search", { space: "lab-wiki", query: "centrifuge" }),
    /opens space "ana-notes" only/,
  );
  assert.match(await callError(client, "get_page", { space: "bo-notes", page: "Diary" }), /only/);
  const spaces = await callOk<{ spaces: { id: string }[] }>(client, "my_spaces");
  assert.deepEqual(spaces.spaces.map((s) => s.id), ["ana-notes"]);
});

Deno.test("get_page pages a long page in slices that add up to the whole", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "big", visibility: "public" });
  const markdown = "# Long\n" +
    Array.from({ length: 400 }, (_, i) => `Line ${i} of a long page about soil.`).join("\n");
  await writePage(deps, { wikiId: "big", path: "Long", markdown }, by);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/w/big/");
  let offset = 0;
  let text = "";
  let calls = 0;
  for (;;) {
    const slice = await callOk<
      { markdown: string; truncated: boolean; next_offset: number | null }
    >(
      client,
      "get_page",
      { page: "Long", offset, max_chars: 2000 },
    );
    calls++;
    assert.ok(slice.markdown.length <= 2000);
    text += slice.markdown;
    if (!slice.truncated) break;
    offset = slice.next_offset!;
  }
  assert.equal(text, markdown);
  assert.ok(calls >= 7, `expected several slices, got ${calls}`);
  assert.match(
    await callError(client, "get_page", { page: "Long", offset: markdown.length + 1 }),
    /past the end/,
  );
});

Deno.test("MCP over HTTP: 405 for GET and DELETE, one Accept type is enough, CORS, Host and Origin checks", async () => {
  await using db = await freshDb();
  const { account } = await world(db);
  const { app } = testApp(db);
  const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  for (
    const path of ["/mcp", "/mcp/", "/mcp/hub", "/mcp/hub/", "/mcp/w/garden", "/mcp/w/garden/"]
  ) {
    for (const method of ["GET", "DELETE"]) {
      const res = await app.request(path, {
        method,
        headers: { Authorization: `Bearer ${account}` },
      });
      assert.equal(res.status, 405, `${method} ${path}`);
      assert.match(res.headers.get("allow")!, /POST/);
    }
  }
  for (const accept of ["application/json", "text/event-stream", "*/*"]) {
    const res = await app.request("/mcp/hub", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: accept },
      body: list,
    });
    assert.equal(res.status, 200, accept);
    assert.equal((await res.json()).result.tools.length, 8);
  }
  const preflight = await app.request("/mcp/", {
    method: "OPTIONS",
    headers: {
      Origin: "https://claude.ai",
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "authorization, content-type, mcp-protocol-version",
    },
  });
  assert.equal(preflight.status, 204);
  assert.match(preflight.headers.get("access-control-allow-headers")!, /MCP-Protocol-Version/i);
  const hub = await app.request("/mcp/hub/", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      Origin: "https://example.org",
    },
    body: list,
  });
  assert.equal(hub.status, 200);
  assert.match(hub.headers.get("access-control-expose-headers")!, /WWW-Authenticate/);
  const foreign = await app.request("/mcp/", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      Origin: "https://evil.example",
      Authorization: `Bearer ${account}`,
    },
    body: list,
  });
  assert.equal(foreign.status, 403);
  const local = await app.request("/mcp/", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      Origin: "http://localhost:6274",
      Authorization: `Bearer ${account}`,
    },
    body: list,
  });
  assert.equal(local.status, 200);
  const rebound = await app.request("http://evil.example/mcp/hub/", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: list,
  });
  assert.equal(rebound.status, 403);
});

Deno.test("GET /.well-known/mcp lists the three endpoints and their tools", async () => {
  await using db = await freshDb();
  const { app } = testApp(db);
  const card = await (await app.request("/.well-known/mcp")).json();
  assert.deepEqual(card.endpoints.map((e: { url: string }) => e.url), [
    "http://wiki.test/mcp/hub/",
    "http://wiki.test/mcp/w/{id}/",
    "http://wiki.test/mcp/",
  ]);
  assert.ok(card.endpoints[2].tools.includes("confirm_use"));
  assert.ok(card.endpoints[2].tools.includes("propose_edit"));
  assert.ok(card.endpoints[0].tools.includes("report_problem"));
});

Deno.test("ask over MCP answers with citations from the chosen wiki only", async () => {
  await using db = await freshDb();
  const { account } = await world(db);
  const { app } = testApp(db);
  const hub = await mcpClient(app, "/mcp/hub/");
  const answer = await callOk<{ answer: string; citations: { wiki: string; page: string }[] }>(
    hub,
    "ask",
    { wiki: "garden", question: "What do worms speed up?" },
  );
  assert.match(answer.answer, /Worms speed up/);
  assert.ok(answer.citations.every((c) => c.wiki === "garden"));
  const mine = await mcpClient(app, "/mcp/", account);
  const secret = await callOk<{ answer: string }>(mine, "ask", {
    space: "ana-notes",
    question: "When is the launch?",
  });
  assert.match(secret.answer, /ninth of March/);
  assert.match(
    await callError(hub, "ask", { wiki: "ana-notes", question: "When is the launch?" }),
    /not found/,
  );
});

Deno.test("an unauthenticated GET on /mcp/ gets the same 401 challenge as a POST", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  for (const path of ["/mcp", "/mcp/"]) {
    const get = await app.request(path, { headers: { Accept: "text/event-stream" } });
    const post = await app.request(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(get.status, 401, path);
    assert.equal(post.status, 401, path);
    assert.equal(get.headers.get("www-authenticate"), post.headers.get("www-authenticate"));
    assert.match(get.headers.get("www-authenticate")!, /resource_metadata=/);
    const bad = await app.request(path, { headers: { Authorization: "Bearer nope" } });
    assert.equal(bad.status, 401);
    assert.match(bad.headers.get("www-authenticate")!, /invalid_token/);
  }
});

Deno.test("a 429 on an MCP endpoint is a JSON-RPC error with the retry time, readable cross-origin", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db, {
    RATE_LIMIT_ANON_PER_MINUTE: "2",
    OPERATOR_CONTACT: "ops@wiki.example",
  });
  const call = () =>
    app.request("/mcp/hub/", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        Origin: "https://chat.example",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 42, method: "tools/list" }),
    });
  assert.equal((await call()).status, 200);
  assert.equal((await call()).status, 200);
  const limited = await call();
  assert.equal(limited.status, 429);
  assert.match(limited.headers.get("content-type")!, /^application\/json/);
  assert.equal(limited.headers.get("access-control-allow-origin"), "https://chat.example");
  assert.match(limited.headers.get("access-control-expose-headers")!, /Retry-After/);
  const retryAfter = Number(limited.headers.get("retry-after"));
  assert.ok(retryAfter >= 1);
  const body = await limited.json();
  assert.equal(body.jsonrpc, "2.0");
  assert.equal(body.id, 42);
  assert.equal(body.error.code, -32000);
  assert.equal(body.error.data.retry_after, retryAfter);
  assert.equal(body.error.data.contact, "ops@wiki.example");
  assert.match(body.error.message, /try again in \d+ s.*ops@wiki\.example/);
  // REST keeps problem+json, with the contact too.
  const rest = await app.request("/api/v1/public/wikis");
  assert.equal(rest.status, 429);
  assert.match(rest.headers.get("content-type")!, /problem\+json/);
  assert.equal((await rest.json()).contact, "ops@wiki.example");
});

Deno.test("not-found messages name the caller's surface: list_wikis on MCP, the REST list on REST", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const rest = await app.request("/api/v1/public/wikis/zzzzzzzz/search?q=x");
  assert.equal(rest.status, 404);
  const problem = await rest.json();
  assert.doesNotMatch(problem.detail, /list_wikis/);
  assert.match(problem.detail, /GET \/api\/v1\/public\/wikis/);
  const llms = await app.request("/w/zzzzzzzz/llms.txt");
  assert.equal(llms.status, 404);
  assert.doesNotMatch((await llms.json()).detail, /list_wikis/);
  const hub = await mcpClient(app, "/mcp/hub/");
  assert.match(await callError(hub, "search", { wiki: "zzzzzzzz", query: "x" }), /list_wikis/);
});

Deno.test("/.well-known/mcp lists OAuth for /mcp/, the revisions and the operator contact", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, { OPERATOR_CONTACT: "ops@wiki.example" });
  const card = await (await app.request("/.well-known/mcp")).json();
  const mine = card.endpoints[2];
  assert.equal(mine.authorization.type, "oauth2");
  assert.equal(
    mine.authorization.protected_resource_metadata,
    "http://wiki.test/.well-known/oauth-protected-resource/mcp",
  );
  assert.deepEqual(mine.authorization.authorization_servers, ["http://wiki.test"]);
  assert.deepEqual(card.protocol_versions, ["2026-07-28", "2025-11-25"]);
  assert.equal(card.contact, "ops@wiki.example");
  const { app: plain } = testApp(db);
  assert.equal((await (await plain.request("/.well-known/mcp")).json()).contact, undefined);
});

Deno.test("every endpoint's instructions mention each of its tools, ask included", async () => {
  await using db = await freshDb();
  const { account } = await world(db);
  const { app } = testApp(db);
  for (const [path, token] of [["/mcp/hub/"], ["/mcp/w/garden/"], ["/mcp/", account]]) {
    const client = await mcpClient(app, path!, token);
    const instructions = client.getInstructions() ?? "";
    for (const tool of (await client.listTools()).tools) {
      assert.ok(instructions.includes(`\`${tool.name}\``), `${path}: ${tool.name}`);
    }
    await client.close();
  }
});

Deno.test("the guide's Tokens page shows OPERATOR_CONTACT, or says none is configured", async () => {
  await using db = await freshDb();
  await seedDocs({ ...testDeps(db), config: testConfig({ OPERATOR_CONTACT: "ops@wiki.example" }) });
  const { app } = testApp(db);
  const page = await (await app.request("/w/docs/Tokens.md")).text();
  assert.match(page, /contact `ops@wiki\.example`/);
  assert.doesNotMatch(page, /\{\{OPERATOR_CONTACT\}\}/);
  await seedDocs(testDeps(db));
  const unset = await (await app.request("/w/docs/Tokens.md")).text();
  assert.match(unset, /none is configured here/);
});

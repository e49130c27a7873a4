import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { DEFAULT_BODY_LIMIT, HEAD_LIMITS } from "../src/http/request_limits.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { startFakeOpenAi } from "./fake_openai.ts";
import { DATABASE_URL, freshDb, testApp, testConfig } from "./helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";
import {
  BASE,
  grantTokens,
  mcpStatus,
  oauthApp,
  PASSWORD,
  register,
  signedIn,
  tokenRequest,
} from "./oauth_helpers.ts";
import { makeStore, seedFixtures, startServer } from "./reliability/harness.ts";

const MIB = 1024 * 1024;

async function pagesOf(db: Db): Promise<number> {
  const [row] = await db<{ n: number }>`SELECT count(*)::int AS n FROM pages`;
  return row!.n;
}

Deno.test("every request is logged as one JSON line with its id and credential, never a secret", async () => {
  await using db = await freshDb();
  const ana = await createAccount(db, { email: "ana@example.com" });
  await createWiki(db, { id: "notes", ownerAccountId: ana.id });
  const made = await createToken(db, { accountId: ana.id, kind: "account", name: "t" });
  const { app, deps } = testApp(db);
  const res = await app.request("/api/v1/spaces?access_token=wk_acct_leak_me", {
    headers: { Authorization: `Bearer ${made.token}`, "X-Request-Id": "req-42" },
  });
  assert.equal(res.status, 200);
  const line = deps.logLines.map((l) => JSON.parse(l)).find((l) =>
    l.message === "request" && l.request_id === "req-42"
  );
  assert.deepEqual(
    { method: line.method, path: line.path, status: line.status, credential: line.credential },
    {
      method: "GET",
      path: "/api/v1/spaces",
      status: 200,
      credential: `account_token:${made.record.id}`,
    },
  );
  assert.equal(typeof line.ms, "number");
  const all = deps.logLines.join("\n");
  assert.ok(
    !all.includes(made.token) && !all.includes(made.token.slice(8)),
    "no token in the logs",
  );
  assert.ok(!all.includes("leak_me"), "no query string in the logs");
});

Deno.test("responses carry security headers, with HSTS over https", async () => {
  await using db = await freshDb();
  const plain = await testApp(db).app.request("/healthz");
  assert.equal(plain.headers.get("x-content-type-options"), "nosniff");
  assert.equal(plain.headers.get("referrer-policy"), "no-referrer");
  assert.equal(plain.headers.get("strict-transport-security"), null);
  const secure = await testApp(db, { BASE_URL: "https://wiki.example.com" }).app.request(
    "/healthz",
  );
  assert.match(secure.headers.get("strict-transport-security")!, /max-age=/);
});

Deno.test("with the database gone, /readyz and requests answer 503; /healthz stays up", async () => {
  const db = await freshDb();
  await createWiki(db, { id: "garden", visibility: "public" });
  const { app } = testApp(db);
  assert.equal((await app.request("/readyz")).status, 200);
  await db.close();
  try {
    assert.equal((await app.request("/readyz")).status, 503);
    const res = await app.request("/api/v1/public/wikis");
    assert.equal(res.status, 503);
    assert.equal((await res.json()).code, "database_unavailable");
    assert.equal(res.headers.get("retry-after"), "5");
    assert.equal((await app.request("/healthz")).status, 200);
  } finally {
    await db[Symbol.asyncDispose]().catch(() => {});
  }
});

Deno.test("a request past REQUEST_TIMEOUT_MS answers 503 request_timeout instead of hanging", async () => {
  await using db = await freshDb();
  // A database whose `SELECT 1` never answers, as a hung connection would.
  const hung = Object.assign(
    (strings: TemplateStringsArray, ...values: unknown[]) =>
      strings.join("").trim() === "SELECT 1" ? new Promise(() => {}) : db(strings, ...values),
    { kind: db.kind, query: db.query, exec: db.exec, transaction: db.transaction, close: db.close },
  ) as Db;
  const { app, deps } = testApp(hung, { REQUEST_TIMEOUT_MS: "100" });
  const res = await app.request("/readyz", { headers: { "X-Request-Id": "slow-1" } });
  assert.equal(res.status, 503);
  assert.equal(res.headers.get("content-type"), "application/problem+json");
  const problem = await res.json();
  assert.equal(problem.code, "request_timeout");
  assert.equal(problem.request_id, "slow-1");
  assert.equal(problem.timeout_ms, 100);
  const logged = deps.logLines.map((l) => JSON.parse(l));
  assert.ok(logged.some((l) => l.message === "request timed out" && l.request_id === "slow-1"));
  assert.ok(
    logged.some((l) => l.message === "request" && l.request_id === "slow-1" && l.status === 503),
  );
  assert.equal((await app.request("/healthz")).status, 200, "other requests are served");
});

Deno.test("REQUEST_TIMEOUT_MS and IMPORT_TIMEOUT_MS are read from the environment", () => {
  assert.deepEqual(testConfig().timeouts, { requestMs: 30_000, importMs: 600_000 });
  assert.deepEqual(
    testConfig({ REQUEST_TIMEOUT_MS: "5000", IMPORT_TIMEOUT_MS: "60000" }).timeouts,
    { requestMs: 5000, importMs: 60_000 },
  );
  assert.throws(() => testConfig({ REQUEST_TIMEOUT_MS: "0" }), /REQUEST_TIMEOUT_MS/);
});

Deno.test("too many or too large headers answer 431, too long a URL 414, as problem+json", async () => {
  await using db = await freshDb();
  const { app } = testApp(db);
  const many: Record<string, string> = {};
  for (let i = 0; i < HEAD_LIMITS.headers + 1; i++) many[`x-h${i}`] = "v";
  const tooMany = await app.request("/api/v1/public/wikis", { headers: many });
  assert.equal(tooMany.status, 431);
  assert.equal((await tooMany.json()).code, "headers_too_large");
  const big = await app.request("/api/v1/public/wikis", {
    headers: { "X-Big": "a".repeat(HEAD_LIMITS.headerBytes) },
  });
  assert.equal(big.status, 431);
  const token = await app.request("/mcp/", {
    method: "POST",
    headers: { Authorization: `Bearer wk_acct_${"x".repeat(HEAD_LIMITS.headerBytes)}` },
  });
  assert.equal(token.status, 431, "an oversized token never reaches the credential lookup");
  await token.body?.cancel();
  const url = await app.request(`/api/v1/public/wikis?query=${"q".repeat(HEAD_LIMITS.urlChars)}`);
  assert.equal(url.status, 414);
  assert.equal((await url.json()).code, "uri_too_long");
  const fine = await app.request("/api/v1/public/wikis", { headers: { "X-Ok": "a".repeat(8000) } });
  assert.equal(fine.status, 200);
});

Deno.test("every route that takes a body bounds it: 413 (JSON-RPC on MCP, OAuth's shape on OAuth)", async () => {
  await using db = await freshDb();
  const ana = await createAccount(db, { email: "ana@example.com" });
  await createWiki(db, { id: "notes", ownerAccountId: ana.id });
  const made = await createToken(db, { accountId: ana.id, kind: "account", name: "t" });
  const { app } = testApp(db);
  const post = (path: string, type: string, size: number, extra: Record<string, string> = {}) =>
    app.request(path, {
      method: path.includes("/pages/") ? "PUT" : "POST",
      // A declared size, as browsers and HTTP clients send: refused before anything is read.
      headers: {
        "Content-Type": type,
        "Content-Length": String(size),
        Accept: "application/json, text/event-stream",
        ...extra,
      },
      body: "x".repeat(size),
    });
  const auth = { Authorization: `Bearer ${made.token}` };
  const cases: [string, string, number, Record<string, string>, number][] = [
    ["/api/v1/spaces/notes/pages/Big", "text/markdown", 4 * MIB + 1, auth, 413],
    ["/api/v1/spaces/notes/ask", "application/json", 4 * MIB + 1, auth, 413],
    ["/mcp/hub/", "application/json", 4 * MIB + 1, {}, 413],
    ["/mcp/", "application/json", 4 * MIB + 1, auth, 413],
    ["/register", "application/json", 16 * 1024 + 1, {}, 400],
    ["/token", "application/x-www-form-urlencoded", 16 * 1024 + 1, {}, 400],
    ["/signin", "application/x-www-form-urlencoded", 64 * 1024 + 1, {}, 413],
    ["/account/tokens", "application/x-www-form-urlencoded", 16 * 1024 + 1, {}, 413],
    ["/teams", "application/x-www-form-urlencoded", 64 * 1024 + 1, {}, 413],
    ["/any/new/route", "application/octet-stream", DEFAULT_BODY_LIMIT + 1, {}, 413],
  ];
  for (const [path, type, size, extra, status] of cases) {
    const res = await post(path, type, size, extra);
    const body = await res.text();
    assert.equal(res.status, status, `${path}: ${body.slice(0, 200)}`);
    if (path.startsWith("/mcp")) assert.match(body, /"jsonrpc":"2.0".*Payload Too Large/);
    if (path === "/register" || path === "/token") assert.match(body, /"invalid_request"/);
  }
});

Deno.test("malformed JSON answers 400 on every JSON route; MCP with a JSON-RPC parse error", async () => {
  await using db = await freshDb();
  const ana = await createAccount(db, { email: "ana@example.com" });
  await createWiki(db, { id: "notes", ownerAccountId: ana.id });
  await createWiki(db, { id: "garden", visibility: "public" });
  const made = await createToken(db, { accountId: ana.id, kind: "account", name: "t" });
  const { app } = testApp(db);
  const auth = { Authorization: `Bearer ${made.token}` };
  for (const body of ['{"question": "x"', "[1,", "\u00ff{", "{'a':1}"]) {
    for (
      const [method, path, extra] of [
        ["PUT", "/api/v1/spaces/notes/pages/Plan", auth],
        ["POST", "/api/v1/spaces/notes/import", auth],
        ["POST", "/api/v1/spaces/notes/ask", auth],
        ["POST", "/api/v1/public/wikis/garden/ask", {}],
      ] as const
    ) {
      const res = await app.request(path, {
        method,
        headers: { "Content-Type": "application/json", ...extra },
        body,
      });
      assert.equal(res.status, 400, `${method} ${path} ${body}`);
      assert.equal((await res.json()).code, "invalid_json", `${method} ${path}`);
    }
    const register = await app.request("/register", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    assert.equal(register.status, 400);
    assert.equal((await register.json()).error, "invalid_client_metadata");
    for (
      const [path, extra] of [["/mcp/hub/", {}], ["/mcp/w/garden/", {}], ["/mcp/", auth]] as const
    ) {
      const res = await app.request(path, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...extra,
        },
        body,
      });
      assert.equal(res.status, 400, path);
      const rpc = await res.json();
      assert.equal(rpc.jsonrpc, "2.0");
      assert.equal(rpc.error.code, -32700, `${path}: ${JSON.stringify(rpc)}`);
    }
  }
  assert.equal(
    await pagesOf(db),
    0,
    "nothing was written",
  );
});

Deno.test("a NUL character in a query, a path or a page is refused, never a 500", async () => {
  await using db = await freshDb();
  const ana = await createAccount(db, { email: "ana@example.com" });
  await createWiki(db, { id: "notes", ownerAccountId: ana.id });
  await createWiki(db, { id: "garden", visibility: "public" });
  const made = await createToken(db, { accountId: ana.id, kind: "account", name: "t" });
  const { app, deps } = testApp(db);
  const auth = { Authorization: `Bearer ${made.token}` };
  for (
    const [path, headers, code] of [
      ["/api/v1/public/wikis/garden/search?q=a%00b", {}, "bad_request"],
      ["/api/v1/spaces/notes/search?q=%00", auth, "bad_request"],
      ["/api/v1/public/wikis?query=%00", {}, "bad_request"],
      ["/api/v1/public/wikis/garden/pages/a%00b", {}, "page_not_found"],
    ] as const
  ) {
    const res = await app.request(path, { headers });
    assert.equal((await res.json()).code, code, path);
  }
  const write = await app.request("/api/v1/spaces/notes/pages/Plan", {
    method: "PUT",
    headers: { ...auth, "Content-Type": "text/markdown" },
    body: "# Plan\nA\u0000B",
  });
  assert.equal(write.status, 400);
  const client = await mcpClient(app, "/mcp/w/garden/");
  const result = await client.callTool({ name: "search", arguments: { query: "a\u0000b" } });
  assert.equal(result.isError, true);
  assert.equal((result._meta as { code: string }).code, "bad_request");
  assert.ok(
    !deps.logLines.some((l) => l.includes('"unhandled error"') || l.includes("tool failed")),
  );
});

Deno.test("no log line and no audit entry holds a password, token, code, verifier or client secret", async () => {
  await using db = await freshDb();
  const { app, deps } = oauthApp(db);
  const { browser: b, accountId } = await signedIn(app, db);
  const wrong = await b.post("/signin", {
    _csrf: await b.token("/account"),
    email: "ana@example.com",
    password: "wrong horse battery staple",
  });
  assert.notEqual(wrong.status, 500);
  const grant = await grantTokens(app, b);
  const refreshed = await (await tokenRequest(app, {
    grant_type: "refresh_token",
    client_id: grant.client.client_id,
    refresh_token: grant.tokens.refresh_token,
  })).json();
  const confidential = await register(app, { token_endpoint_auth_method: "client_secret_post" });
  await tokenRequest(app, {
    grant_type: "refresh_token",
    client_id: confidential.client_id,
    client_secret: confidential.client_secret!,
    refresh_token: "wk_ort_not_a_real_one",
  });
  assert.equal(await mcpStatus(app, refreshed.access_token), 200);
  const account = await createToken(db, { accountId, kind: "account", name: "cli" });
  const client = await mcpClient(app, "/mcp/", account.token);
  await callOk(client, "search", { space: "ana-notes", query: "anything" });
  for (
    const init of [
      { headers: { Authorization: `Bearer ${account.token}` } },
      { headers: { Authorization: `Bearer ${account.token}`, "X-Pad": "a".repeat(40_000) } },
      { headers: { Authorization: `Bearer ${account.token}x` } },
    ] as RequestInit[]
  ) {
    await (await app.request(`${BASE}/api/v1/spaces?access_token=${account.token}`, init)).text();
  }
  await tokenRequest(app, { token: refreshed.refresh_token }, "/revoke");
  const secrets = {
    password: PASSWORD,
    wrongPassword: "wrong horse battery staple",
    code: grant.code,
    verifier: grant.verifier,
    access: grant.tokens.access_token,
    refresh: grant.tokens.refresh_token,
    rotatedAccess: refreshed.access_token,
    rotatedRefresh: refreshed.refresh_token,
    clientSecret: confidential.client_secret!,
    accountToken: account.token,
    session: [...b.jar.values()].find((v) => v.length === 43)!,
  };
  const logs = deps.logLines.join("\n");
  const audit = JSON.stringify(await db`SELECT * FROM audit_events`);
  assert.ok(audit.includes("ana-notes"), "the audit log recorded the calls");
  for (const [name, secret] of Object.entries(secrets)) {
    assert.ok(secret && secret.length >= 8, `${name} is known`);
    assert.ok(!logs.includes(secret), `${name} is not in the logs`);
    assert.ok(!audit.includes(secret), `${name} is not in the audit log`);
  }
});

Deno.test("SIGTERM lets the in-flight request finish, refuses new connections and exits 0", async () => {
  const fake = startFakeOpenAi();
  const store = await makeStore(DATABASE_URL ? "postgres" : "pglite", DATABASE_URL);
  try {
    await seedFixtures(store, 3);
    fake.delay(3000);
    const server = await startServer({
      ...store.env,
      LOG_LEVEL: "info",
      LLM_MODEL: "fake-chat",
      LLM_BASE_URL: fake.url,
      LLM_TIMEOUT_MS: "20000",
    });
    try {
      const asking = fetch(`${server.url}/api/v1/public/wikis/rel-public/ask`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ question: "How do I restart the cache safely?" }),
      });
      // The request is in flight once the server has called the (slow) language model.
      while (fake.chats.length === 0) await new Promise((r) => setTimeout(r, 20));
      Deno.kill(server.pid, "SIGTERM");
      const port = Number(new URL(server.url).port);
      let settled = false;
      asking.then(() => settled = true, () => settled = true);
      let refused = false;
      while (!refused && !settled) {
        try {
          (await Deno.connect({ hostname: "127.0.0.1", port })).close();
          await new Promise((r) => setTimeout(r, 20));
        } catch (error) {
          refused = error instanceof Deno.errors.ConnectionRefused;
        }
      }
      assert.ok(refused, "a new connection is refused while the request drains");
      const answered = await asking;
      assert.equal(answered.status, 200);
      assert.ok((await answered.json()).answer, "the in-flight request got its whole answer");
      const status = await server.status;
      assert.equal(status.code, 0, server.output());
      assert.match(server.output(), /shutting down: draining requests[\s\S]*"stopped"/);
    } finally {
      await server.stop("SIGKILL");
    }
  } finally {
    await store.dispose();
    await fake.close();
  }
});

import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import { openPostgres } from "../src/db/postgres.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";
import { person } from "./space_helpers.ts";

Deno.test("the N+1st request in a window gets 429 with Retry-After; headers say the budget", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "garden", visibility: "public" });
  // A window long enough that six requests fall in one even on a busy machine.
  const { app } = testApp(db, { RATE_LIMIT_ANON_PER_MINUTE: "5", RATE_LIMIT_WINDOW_SECONDS: "60" });
  const statuses: number[] = [];
  let last: Response | undefined;
  for (let i = 0; i < 6; i++) {
    last = await app.request("/api/v1/public/wikis");
    statuses.push(last.status);
    if (i === 0) {
      assert.equal(last.headers.get("ratelimit-policy"), '"anon";q=5;w=60');
      assert.match(last.headers.get("ratelimit")!, /^"anon";r=4;t=\d+$/);
    }
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  const retryAfter = Number(last!.headers.get("retry-after"));
  assert.ok(
    Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
    `Retry-After ${retryAfter}`,
  );
  assert.match(last!.headers.get("ratelimit")!, new RegExp(`^"anon";r=0;t=${retryAfter}$`));
  const problem = await last!.json();
  assert.equal(problem.code, "rate_limited");
  assert.equal(problem.retry_after, retryAfter);
});

Deno.test("after Retry-After seconds the budget is back", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "garden", visibility: "public" });
  const { app } = testApp(db, { RATE_LIMIT_ANON_PER_MINUTE: "1", RATE_LIMIT_WINDOW_SECONDS: "2" });
  // Spend the budget of one until a request is refused (a slow machine may cross a window).
  let refused: Response | undefined;
  for (let i = 0; i < 5 && !refused; i++) {
    const res = await app.request("/api/v1/public/wikis");
    if (res.status === 429) refused = res;
    else await res.body?.cancel();
  }
  assert.ok(refused, "no request was refused");
  const retryAfter = Number(refused.headers.get("retry-after"));
  assert.ok(retryAfter >= 1 && retryAfter <= 2, `Retry-After ${retryAfter}`);
  await refused.body?.cancel();
  await new Promise((r) => setTimeout(r, retryAfter * 1000 + 100));
  assert.equal((await app.request("/api/v1/public/wikis")).status, 200);
});

Deno.test("authenticated traffic is limited per account, not per address", async () => {
  await using db = await freshDb();
  const ana = await createAccount(db, { email: "ana@example.com" });
  const bo = await createAccount(db, { email: "bo@example.com" });
  await createWiki(db, { id: "notes", ownerAccountId: ana.id });
  const one = (await createToken(db, { accountId: ana.id, kind: "account", name: "one" })).token;
  const two = (await createToken(db, { accountId: ana.id, kind: "account", name: "two" })).token;
  const bos = (await createToken(db, { accountId: bo.id, kind: "account", name: "bo" })).token;
  const { app } = testApp(db, {
    RATE_LIMIT_TOKEN_PER_MINUTE: "3",
    RATE_LIMIT_ANON_PER_MINUTE: "100",
  });
  const get = (token: string) =>
    app.request("/api/v1/spaces", { headers: { Authorization: `Bearer ${token}` } });
  const first = [];
  for (let i = 0; i < 4; i++) first.push((await get(one)).status);
  assert.deepEqual(first, [200, 200, 200, 429]);
  assert.equal((await get(two)).status, 429, "another token of the account shares its budget");
  assert.equal(
    (await get(bos)).status,
    200,
    "another account from the same address has its own budget",
  );
  assert.equal((await app.request("/api/v1/public/wikis")).status, 200, "anonymous traffic too");
});

Deno.test("MCP tool results carry the remaining budget; /token and /register have their own", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "garden", visibility: "public" });
  const { app } = testApp(db, { RATE_LIMIT_OAUTH_PER_MINUTE: "2" });
  const client = await mcpClient(app, "/mcp/hub/");
  const result = await client.callTool({ name: "list_wikis", arguments: {} });
  const budget = (result._meta as { ratelimit: { limit: number; remaining: number } }).ratelimit;
  assert.equal(budget.limit, 600);
  assert.ok(budget.remaining < 600);
  await callOk(client, "list_wikis");
  const register = () =>
    app.request("/register", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
  const statuses = [
    (await register()).status,
    (await register()).status,
    (await register()).status,
  ];
  assert.equal(statuses[2], 429);
  assert.notEqual(statuses[0], 429);
});

Deno.test("when the counter store fails, requests go through and the failure is logged", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "garden", visibility: "public" });
  const { app, deps } = testApp(db);
  await db.exec("DROP TABLE rate_limits");
  const res = await app.request("/api/v1/public/wikis");
  assert.equal(res.status, 200);
  assert.ok(deps.logLines.some((l) => l.includes("rate limit store failed")));
});

Deno.test("two server processes on one database share the budget", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "garden", visibility: "public" });
  // A second process is a second connection pool on PostgreSQL; PGlite has one process.
  const other = db.url ? openPostgres(db.url, { max: 2 }) : db;
  try {
    const env = { RATE_LIMIT_ANON_PER_MINUTE: "3" };
    const apps = [testApp(db, env).app, testApp(other, env).app];
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await apps[i % 2]!.request("/api/v1/public/wikis")).status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  } finally {
    if (other !== db) await other.close();
  }
});

Deno.test("behind a trusted proxy, addresses a client puts in X-Forwarded-For do not change its budget", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, { RATE_LIMIT_ANON_PER_MINUTE: "2", TRUST_PROXY: "true" });
  const get = (forwarded: string) =>
    app.request("/api/v1/public/wikis", { headers: { "x-forwarded-for": forwarded } });
  // The proxy appends the address it saw (203.0.113.9) after whatever the client sent.
  const statuses = [];
  for (const spoofed of ["198.51.100.1", "198.51.100.2", "198.51.100.3"]) {
    statuses.push((await get(`${spoofed}, 203.0.113.9`)).status);
  }
  assert.deepEqual(statuses, [200, 200, 429]);
  assert.equal((await get("203.0.113.10")).status, 200, "another client has its own budget");
});

Deno.test("a signed-in web page view is not counted against the address's anonymous API budget", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, {
    RATE_LIMIT_ANON_PER_MINUTE: "3",
    RATE_LIMIT_WEB_PER_MINUTE: "100",
  });
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "notes", ownerAccountId: ana.id });
  // The same address as ana's browser (tests/browser.ts), without a credential.
  const env = { remoteAddr: { hostname: "192.0.2.1", port: 40000, transport: "tcp" } };
  const api = [];
  for (let i = 0; i < 4; i++) api.push((await app.request("/api/v1/public/wikis", {}, env)).status);
  assert.deepEqual(api, [200, 200, 200, 429]);
  const page = await ana.get("/w/notes");
  assert.equal(page.status, 200);
  assert.match(page.headers.get("ratelimit-policy")!, /^"web";q=100;w=60$/);
});

Deno.test("the web budget is per session when signed in, per address when not", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, { RATE_LIMIT_WEB_PER_MINUTE: "3" });
  const ana = await person(app, db, "ana@example.com", "Ana");
  const bo = await person(app, db, "bo@example.com", "Bo");
  await createWiki(db, { id: "garden", visibility: "public", ownerAccountId: ana.id });
  const views = [];
  for (let i = 0; i < 4; i++) views.push((await ana.get("/w/garden")).status);
  assert.deepEqual(views, [200, 200, 200, 429]);
  const problem = await (await ana.get("/w/garden")).text();
  assert.match(problem, /Too many requests/);
  assert.equal((await bo.get("/w/garden")).status, 200, "another session from the same address");
  // A made-up session cookie is counted by its address, like any signed-out view.
  const forged = { cookie: `wiki_session=${"A".repeat(43)}` };
  const anonymous = [];
  for (let i = 0; i < 4; i++) {
    anonymous.push((await app.request("/w/garden", { headers: i % 2 ? forged : {} })).status);
  }
  assert.deepEqual(anonymous, [200, 200, 200, 429]);
  // Machine reads under /w/ spend the API budget, not the page views'.
  assert.equal((await app.request("/w/garden/llms.txt")).status, 200);
});

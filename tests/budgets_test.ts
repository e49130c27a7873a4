import assert from "node:assert/strict";
import type { Hono } from "hono";
import { createApp } from "../src/app.ts";
import { createToken } from "../src/auth/tokens.ts";
import { browser } from "./browser.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";
import { BASE, grantTokens, noNetwork, signedIn } from "./oauth_helpers.ts";

/** Posts a JSON-RPC body to the private MCP endpoint with a bearer token. */
async function mcpPost(app: Hono, token: string, body: unknown): Promise<Response> {
  const res = await app.request(`${BASE}/mcp/`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      Authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
  });
  return res;
}

const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });

/** The whole app over https with a small per-account budget. */
function smallBudgetApp(db: Parameters<typeof testDeps>[0], perMinute: string) {
  const deps = testDeps(db, {
    BASE_URL: BASE,
    RATE_LIMIT_TOKEN_PER_MINUTE: perMinute,
    RATE_LIMIT_ANON_PER_MINUTE: "1000",
    RATE_LIMIT_OAUTH_PER_MINUTE: "1000",
  });
  return createApp(deps, { oauth: { fetcher: noNetwork } });
}

Deno.test("each call of a JSON-RPC batch counts against the budget", async () => {
  await using db = await freshDb();
  const app = smallBudgetApp(db, "5");
  const ana = await signedIn(app, db);
  const { token } = await createToken(db, { accountId: ana.accountId, kind: "account", name: "a" });
  const batch = await mcpPost(app, token, [call(1), call(2), call(3), call(4)]);
  assert.equal(batch.status, 200, await batch.clone().text());
  assert.match(batch.headers.get("ratelimit")!, /;r=1;/, "four calls: one left of five");
  await batch.body?.cancel();
  const single = await mcpPost(app, token, call(5));
  assert.equal(single.status, 200);
  await single.body?.cancel();
  const over = await mcpPost(app, token, call(6));
  assert.equal(over.status, 429);
  await over.body?.cancel();

  // A batch larger than the whole budget is refused, not served for the price of one.
  await using db2 = await freshDb();
  const app2 = smallBudgetApp(db2, "5");
  const bo = await signedIn(app2, db2, "bo@example.com", ["bo-notes"]);
  const boToken = (await createToken(db2, { accountId: bo.accountId, kind: "account", name: "b" }))
    .token;
  const big = await mcpPost(app2, boToken, Array.from({ length: 100 }, (_, i) => call(i)));
  assert.equal(big.status, 429);
  assert.ok(Number(big.headers.get("retry-after")) >= 1);
  // The MCP endpoints answer a JSON-RPC error, with the retry time in its data.
  assert.equal((await big.json()).error.data.code, "rate_limited");
});

Deno.test("an account has one budget across its account tokens, space tokens and OAuth grants", async () => {
  await using db = await freshDb();
  const app = smallBudgetApp(db, "3");
  const ana = await signedIn(app, db);
  const token = async (name: string) =>
    (await createToken(db, { accountId: ana.accountId, kind: "account", name })).token;
  const [one, two] = [await token("one"), await token("two")];
  const space = (await createToken(db, {
    accountId: ana.accountId,
    kind: "space",
    spaceId: "ana-notes",
    name: "space",
  })).token;
  const { tokens } = await grantTokens(app, ana.browser);
  const statuses = [];
  for (const t of [one, space, tokens.access_token, two]) {
    const res = await mcpPost(app, t, call(1));
    statuses.push(res.status);
    await res.body?.cancel();
  }
  assert.deepEqual(statuses, [200, 200, 200, 429], "three requests, whatever the credential");
  const bySpaceToken = await mcpPost(app, space, call(1));
  assert.equal(bySpaceToken.status, 429, "a space token spends its account's budget");
  await bySpaceToken.body?.cancel();
});

Deno.test("sign-ups are limited per address: RATE_LIMIT_SIGNUPS_PER_HOUR, taken emails included", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, { RATE_LIMIT_SIGNUPS_PER_HOUR: "2" });
  const signUp = async (email: string, ip = "192.0.2.50") => {
    const b = browser(app, ip);
    return await b.post("/signup", {
      _csrf: await b.token("/signup"),
      email,
      name: "Someone",
      password: "a long enough password",
    });
  };
  assert.equal((await signUp("a@example.com")).status, 303);
  assert.equal((await signUp("a@example.com")).status, 303, "taken: answered as new, counted");
  const refused = await signUp("c@example.com");
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get("retry-after")) > 60);
  assert.match(await refused.text(), /Too many accounts were made from this network/);
  assert.equal((await signUp("d@example.com", "192.0.2.51")).status, 303, "another address");
  const [n] = await db<{ n: number }>`SELECT count(*)::int AS n FROM accounts`;
  assert.equal(n!.n, 2);
  const short = await signUp("e@example.com", "192.0.2.51");
  assert.equal(short.status, 303, "the second of the other address");
});

Deno.test("a JSON-RPC batch is refused in revisions without batches and holds at most 4 tool calls", async () => {
  await using db = await freshDb();
  const app = smallBudgetApp(db, "1000");
  const ana = await signedIn(app, db);
  const { token } = await createToken(db, { accountId: ana.accountId, kind: "account", name: "a" });
  const ask = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "ask", arguments: { question: "What is in my notes?" } },
  });
  const post = (body: unknown, revision?: string) =>
    app.request(`${BASE}/mcp/`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        Authorization: `Bearer ${token}`,
        ...(revision ? { "MCP-Protocol-Version": revision } : {}),
      },
      body: JSON.stringify(body),
    });
  const hundred = await post(Array.from({ length: 100 }, (_, i) => ask(i)));
  assert.equal(hundred.status, 400);
  assert.match((await hundred.json()).error.message, /at most 32 messages; this one has 100/);
  const five = await post([1, 2, 3, 4, 5].map(ask));
  assert.equal(five.status, 400);
  assert.match((await five.json()).error.message, /at most 4 tool calls; this one has 5/);
  const modern = await post([ask(1), ask(2)], "2025-11-25");
  assert.equal(modern.status, 400);
  assert.match((await modern.json()).error.message, /not part of MCP 2025-11-25/);
  const four = await post([1, 2, 3, 4].map(ask), "2025-03-26");
  assert.equal(four.status, 200);
  const answers = await four.json();
  assert.equal(answers.length, 4);
  assert.ok(answers.every((a: { result?: unknown }) => a.result), JSON.stringify(answers));
});

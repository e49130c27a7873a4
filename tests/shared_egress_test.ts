import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import { parseCidr, rangeOf } from "../src/limits/cidr.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";

// Fair limits behind shared egress: a hosted assistant's users all arrive from its addresses.

const ENV = {
  TRUST_PROXY: "true",
  SHARED_EGRESS_RANGES: "203.0.113.0/24, 2001:db8::/32",
  RATE_LIMIT_ANON_PER_MINUTE: "5",
  RATE_LIMIT_SHARED_EGRESS_PER_MINUTE: "20",
};

function hubCall(app: ReturnType<typeof testApp>["app"], ip: string, token?: string) {
  return app.request("/mcp/hub/", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "X-Forwarded-For": ip,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
}

/** How many of `n` calls from `ip` were answered 200, and the first refusal. */
async function burst(app: ReturnType<typeof testApp>["app"], ip: string, n: number) {
  let ok = 0;
  let refused: Response | null = null;
  for (let i = 0; i < n; i++) {
    const res = await hubCall(app, ip);
    if (res.status === 200) ok++;
    if (res.status !== 200 && !refused) refused = res;
    else await res.body?.cancel();
  }
  return { ok, refused };
}

Deno.test("two anonymous hub callers behind one shared-egress range each get half the pool", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, ENV);
  await createWiki(db, { id: "garden", visibility: "public" });
  const a = await burst(app, "203.0.113.7", 15);
  assert.equal(a.ok, 10, "one address takes at most half of the pool of 20");
  const b = await burst(app, "203.0.113.8", 10);
  assert.equal(b.ok, 10, "the other still gets its half: not starved by the first");
  // Outside the range, the per-address budget applies as before.
  const c = await burst(app, "198.51.100.1", 7);
  assert.equal(c.ok, 5);
  assert.equal(c.refused!.status, 429);
  // The MCP endpoints answer 429 as a JSON-RPC error; its message says how to get a budget.
  const refused = await c.refused!.json();
  assert.match(
    refused.error.message,
    /For a budget of your own, send a token \(Authorization: Bearer/,
  );
  assert.match(refused.error.message, /http:\/\/wiki\.test\/account\/tokens/);
});

Deno.test("a signed-in hub caller is counted alone, per account, not by its address", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, ENV);
  await createWiki(db, { id: "garden", visibility: "public" });
  const ana = await createAccount(db, { email: "ana@example.com" });
  const token = (await createToken(db, { accountId: ana.id, kind: "account", name: "hub" })).token;
  const anon = await burst(app, "203.0.113.7", 12);
  assert.equal(anon.ok, 10);
  const signedIn = await hubCall(app, "203.0.113.7", token);
  assert.equal(signedIn.status, 200);
  assert.match(signedIn.headers.get("ratelimit-policy")!, /^"token";q=1200/);
  const anonAgain = await hubCall(app, "203.0.113.7");
  assert.equal(anonAgain.status, 429);
  assert.match(anonAgain.headers.get("ratelimit-policy")!, /^"shared";q=20/);
});

Deno.test("CIDR ranges: IPv4, IPv6 and mapped addresses; bad ranges are refused", () => {
  const ranges = ["160.79.104.0/21", "2607:6bc0::/48"].map((r) => parseCidr(r)!);
  assert.equal(rangeOf(ranges, "160.79.111.255")?.text, "160.79.104.0/21");
  assert.equal(rangeOf(ranges, "160.79.112.0"), null);
  assert.equal(rangeOf(ranges, "::ffff:160.79.104.9")?.text, "160.79.104.0/21");
  assert.equal(rangeOf(ranges, "2607:6bc0:0:1::5")?.text, "2607:6bc0::/48");
  assert.equal(rangeOf(ranges, "2607:6bc0:1::5"), null);
  assert.equal(rangeOf(ranges, "unknown"), null);
  for (const bad of ["1.2.3.4/33", "300.1.1.1/8", "nonsense", "1.2.3.4/8/1", "::1::2/64"]) {
    assert.equal(parseCidr(bad), null, bad);
  }
});

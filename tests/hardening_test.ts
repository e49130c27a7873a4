import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";

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

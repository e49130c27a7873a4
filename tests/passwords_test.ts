import assert from "node:assert/strict";
import { runAdmin } from "../scripts/admin.ts";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { insertGrant } from "../src/oauth/store.ts";
import { browser } from "./browser.ts";
import { freshDb } from "./helpers.ts";
import { person, spaceApp } from "./space_helpers.ts";

const PASSWORD = "a long enough password";

async function signIn(app: Parameters<typeof browser>[0], email: string, password: string) {
  const b = browser(app, "192.0.2.9");
  return await b.post("/signin", { _csrf: await b.token("/signin"), email, password });
}

Deno.test("deno task admin set-password lets an account made by create-account sign in", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  await runAdmin(db, ["create-account", "--email", "op@example.com"]);
  assert.equal((await signIn(app, "op@example.com", "")).status, 400, "no password to sign in");
  const said = await runAdmin(db, ["set-password", "op@example.com"], {
    readPassword: () => Promise.resolve("the operator's new password"),
  });
  assert.match(said, /password set for op@example\.com/);
  const signedIn = await signIn(app, "op@example.com", "the operator's new password");
  assert.equal(signedIn.status, 303);
  await assert.rejects(
    runAdmin(db, ["set-password", "op@example.com"], {
      readPassword: () => Promise.resolve("short"),
    }),
    /at least 10 characters/,
  );
  await assert.rejects(runAdmin(db, ["set-password", "nobody@example.com"]), /No account/);
  await assert.rejects(runAdmin(db, ["set-password"]), /usage: .*EMAIL/);
});

/** Ana's live credentials: tokens not revoked, grants not revoked. */
async function live(db: Db) {
  const [row] = await db<{ tokens: number; grants: number }>`
    SELECT (SELECT count(*)::int FROM tokens WHERE revoked_at IS NULL) AS tokens,
           (SELECT count(*)::int FROM oauth_grants WHERE revoked_at IS NULL) AS grants`;
  return row!;
}

Deno.test("changing the password revokes the account's tokens and OAuth grants when asked to", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createToken(db, { accountId: ana.id, kind: "account", name: "cli" });
  await createToken(db, { accountId: ana.id, kind: "account", name: "laptop" });
  await db`INSERT INTO oauth_clients (id, kind, name, redirect_uris, auth_method)
    VALUES ('c1', 'dcr', 'App', ARRAY['https://app.example/cb'], 'none')`;
  await insertGrant(db, {
    id: "g1",
    account_id: ana.id,
    client_id: "c1",
    space_ids: [],
    scope: "wiki",
    resource: "http://wiki.test/mcp",
  });
  const settings = await (await ana.get("/account/settings")).text();
  assert.match(settings, /name="revoke_credentials"/);

  const kept = await ana.submit("/account/settings/password", {
    current_password: PASSWORD,
    new_password: "a second long password",
  });
  assert.equal(kept.status, 200);
  assert.deepEqual(await live(db), { tokens: 2, grants: 1 }, "unticked: credentials stay");

  const revoked = await ana.submit("/account/settings/password", {
    current_password: "a second long password",
    new_password: "a third long password",
    revoke_credentials: "yes",
  });
  assert.equal(revoked.status, 200);
  assert.match(await revoked.text(), /2 tokens and 1 connected apps are revoked/);
  assert.deepEqual(await live(db), { tokens: 0, grants: 0 });
});

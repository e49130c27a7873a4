import assert from "node:assert/strict";
import type { Hono } from "hono";
import { runAdmin } from "../scripts/admin.ts";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { insertGrant } from "../src/oauth/store.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";
import { html, person, spaceApp } from "./space_helpers.ts";

/** What Bo's credentials reach: MCP `my_spaces`, REST `/spaces`, his space token's status. */
async function reach(app: Hono, tokens: { account: string; space: string }) {
  const client = await mcpClient(app, "/mcp/", tokens.account);
  const listed = await callOk<{ spaces: { id: string }[] }>(client, "my_spaces");
  await client.close();
  const rest = await app.request("/api/v1/spaces", {
    headers: { Authorization: `Bearer ${tokens.account}` },
  });
  // A space token is for MCP only: 200 while it is live, 401 once revoked.
  const page = await app.request("/mcp/", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      Authorization: `Bearer ${tokens.space}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  await page.body?.cancel();
  return {
    mcp: listed.spaces.map((s) => s.id),
    rest: ((await rest.json()) as { spaces: { id: string }[] }).spaces.map((s) => s.id),
    spaceToken: page.status,
  };
}

/** Ana's team `lab` (space `lab-notes`) with Bo as a member holding tokens and a grant. */
async function setUp(db: Db, app: Hono) {
  const ana = await person(app, db, "ana@example.com", "Ana");
  const bo = await person(app, db, "bo@example.com", "Bo");
  await ana.submit("/teams", { id: "lab", name: "Lab" });
  await createWiki(db, { id: "lab-notes", ownerTeamId: "lab" });
  await ana.submit("/teams/lab/members", { email: "bo@example.com", role: "member" });
  assert.equal((await bo.submit("/teams/lab/invitation/accept")).status, 303);
  const tokens = {
    account: (await createToken(db, { accountId: bo.id, kind: "account", name: "cli" })).token,
    space: (await createToken(db, {
      accountId: bo.id,
      kind: "space",
      spaceId: "lab-notes",
      name: "lab",
    })).token,
  };
  await db`INSERT INTO oauth_clients (id, kind, name, redirect_uris, auth_method)
    VALUES ('c1', 'dcr', 'App', ARRAY['https://app.example/cb'], 'none')`;
  await insertGrant(db, {
    id: "g1",
    account_id: bo.id,
    client_id: "c1",
    space_ids: ["lab-notes"],
    scope: "wiki",
    resource: "http://wiki.test/mcp",
  });
  return { ana, bo, tokens };
}

async function grantSpaces(db: Db): Promise<string[]> {
  const [g] = await db<{ space_ids: string[] }>`SELECT space_ids FROM oauth_grants WHERE id = 'g1'`;
  return g!.space_ids;
}

Deno.test("an owner removes a member on the team page: their session, tokens and grant lose the team's spaces at once", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const { ana, bo, tokens } = await setUp(db, app);
  assert.deepEqual(await reach(app, tokens), {
    mcp: ["lab-notes"],
    rest: ["lab-notes"],
    spaceToken: 200,
  });
  const page = await html(await ana.get("/teams/lab"), 200);
  assert.match(page, new RegExp(`action="/teams/lab/members/${bo.id}/remove"`));

  const noConfirm = await ana.submit(`/teams/lab/members/${bo.id}/remove`);
  assert.equal(noConfirm.status, 400);
  assert.match(await noConfirm.text(), /Tick the box to confirm/);
  const noCsrf = await ana.post(`/teams/lab/members/${bo.id}/remove`, { confirm: "yes" });
  assert.equal(noCsrf.status, 403);
  const byMember = await bo.submit(`/teams/lab/members/${ana.id}/remove`, { confirm: "yes" });
  assert.equal(byMember.status, 403);

  const removed = await ana.submit(`/teams/lab/members/${bo.id}/remove`, { confirm: "yes" });
  assert.equal(removed.status, 303);
  assert.deepEqual(await reach(app, tokens), { mcp: [], rest: [], spaceToken: 401 });
  assert.equal((await bo.get("/teams/lab")).status, 404, "his session no longer sees the team");
  assert.equal((await bo.get("/w/lab-notes")).status, 404);
  assert.deepEqual(await grantSpaces(db), [], "the grant no longer names the team's space");
});

Deno.test("admins cannot remove owners and the last owner is never removed", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const { ana, bo } = await setUp(db, app);
  await ana.submit(`/teams/lab/members/${bo.id}/role`, { role: "admin" });
  const adminRemovesOwner = await bo.submit(`/teams/lab/members/${ana.id}/remove`, {
    confirm: "yes",
  });
  assert.equal(adminRemovesOwner.status, 403);
  const lastOwner = await ana.submit(`/teams/lab/members/${ana.id}/remove`, { confirm: "yes" });
  assert.equal(lastOwner.status, 403);
  assert.match(await lastOwner.text(), /needs another owner/);
  await assert.rejects(
    runAdmin(db, ["remove-member", "lab", "ana@example.com"]),
    /needs another owner/,
  );
  const [n] = await db<
    { n: number }
  >`SELECT count(*)::int AS n FROM memberships WHERE team_id = 'lab'`;
  assert.equal(n!.n, 2);
});

Deno.test("deno task admin remove-member removes at once, tokens and grants included", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const { tokens } = await setUp(db, app);
  assert.equal(
    await runAdmin(db, ["remove-member", "lab", "bo@example.com"]),
    "removed bo@example.com from lab",
  );
  assert.deepEqual(await reach(app, tokens), { mcp: [], rest: [], spaceToken: 401 });
  assert.deepEqual(await grantSpaces(db), []);
  await assert.rejects(runAdmin(db, ["remove-member", "lab", "bo@example.com"]), /not a member/);
  await assert.rejects(runAdmin(db, ["remove-member", "lab"]), /usage: .*TEAM EMAIL/);
});

import assert from "node:assert/strict";
import type { Hono } from "hono";
import { createToken } from "../src/auth/tokens.ts";
import { insertGrant } from "../src/oauth/store.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { mcpStatus } from "./oauth_helpers.ts";
import { html, person, seedPages, spaceApp } from "./space_helpers.ts";

/** The spaces an account token lists over REST. */
async function restSpaces(app: Hono, token: string): Promise<string[]> {
  const res = await app.request("/api/v1/spaces", {
    headers: { Authorization: `Bearer ${token}` },
  });
  return ((await res.json()) as { spaces: { id: string }[] }).spaces.map((s) => s.id);
}

Deno.test("the owner moves a personal space to their team: its members gain it, the owner's tokens and grant keep working", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  const bo = await person(app, db, "bo@example.com", "Bo");
  const cy = await person(app, db, "cy@example.com", "Cy");
  await createWiki(db, { id: "notes", ownerAccountId: ana.id });
  await seedPages(deps, "notes", { "Plans": "# Plans\n\nThe launch date." });
  // Ana owns team lab (Bo joins it) and is a plain member of Cy's team crew.
  await ana.submit("/teams", { id: "lab", name: "Lab" });
  await ana.submit("/teams/lab/members", { email: "bo@example.com", role: "member" });
  assert.equal((await bo.submit("/teams/lab/invitation/accept")).status, 303);
  await cy.submit("/teams", { id: "crew", name: "Crew" });
  await cy.submit("/teams/crew/members", { email: "ana@example.com", role: "member" });
  assert.equal((await ana.submit("/teams/crew/invitation/accept")).status, 303);
  const tokens = {
    account: (await createToken(db, { accountId: ana.id, kind: "account", name: "cli" })).token,
    space: (await createToken(db, {
      accountId: ana.id,
      kind: "space",
      spaceId: "notes",
      name: "notes",
    })).token,
  };
  await db`INSERT INTO oauth_clients (id, kind, name, redirect_uris, auth_method)
    VALUES ('c1', 'dcr', 'App', ARRAY['https://app.example/cb'], 'none')`;
  await insertGrant(db, {
    id: "g1",
    account_id: ana.id,
    client_id: "c1",
    space_ids: ["notes"],
    scope: "wiki",
    resource: "http://wiki.test/mcp",
  });
  assert.equal((await bo.get("/w/notes/Plans")).status, 404, "not Bo's yet");

  // The settings page offers the teams Ana manages, not the one she is a plain member of.
  const settings = await html(await ana.get("/w/notes/-/settings"), 200);
  assert.match(settings, /action="\/w\/notes\/-\/settings\/team"/);
  assert.match(settings, /<option[^>]* value="lab">Lab \(lab\)<\/option>/);
  assert.doesNotMatch(settings, /<option[^>]* value="crew"/);
  const notManaged = await ana.submit("/w/notes/-/settings/team", {
    team: "crew",
    confirm: "yes",
  });
  assert.match(await html(notManaged, 400), /Choose a team you own or administer/);
  const notAsked = await ana.submit("/w/notes/-/settings/team", {});
  assert.equal(notAsked.status, 400);
  // Bo and Cy cannot see the space, let alone move it: its 404.
  assert.equal((await bo.submit("/w/notes/-/settings/team", { team: "lab" })).status, 404);
  assert.equal((await cy.submit("/w/notes/-/settings/team", { team: "crew" })).status, 404);
  const withoutCsrf = await ana.post("/w/notes/-/settings/team", { team: "lab" });
  assert.equal(withoutCsrf.status, 403);
  const [still] = await db<{ owner_account_id: string | null }>`
    SELECT owner_account_id FROM wikis WHERE id = 'notes'`;
  assert.equal(still!.owner_account_id, ana.id);

  const unconfirmed = await ana.submit("/w/notes/-/settings/team", { team: "lab" });
  assert.match(await html(unconfirmed, 400), /cannot be made personal again/);
  const moved = await ana.submit("/w/notes/-/settings/team", { team: "lab", confirm: "yes" });
  assert.equal(moved.status, 303);
  assert.equal(moved.headers.get("location"), "/w/notes/-/settings?moved=1");
  const [row] = await db<{ owner_account_id: string | null; owner_team_id: string | null }>`
    SELECT owner_account_id, owner_team_id FROM wikis WHERE id = 'notes'`;
  assert.deepEqual({ ...row }, { owner_account_id: null, owner_team_id: "lab" });
  const after = await html(await ana.get("/w/notes/-/settings?moved=1"), 200);
  assert.match(after, /Moved: the team/);
  assert.match(after, /belongs to the team/);
  assert.doesNotMatch(after, /settings\/team/, "a team's space is not moved again");

  // The team's member reads and writes it; the team page lists it; a stranger still cannot.
  assert.match(await html(await bo.get("/w/notes/Plans"), 200), /The launch date/);
  assert.equal((await bo.get("/w/notes/Plans.md")).status, 200);
  assert.match(await html(await bo.get("/teams/lab"), 200), /href="\/w\/notes"/);
  assert.equal((await cy.get("/w/notes/Plans")).status, 404);
  // Ana keeps it through her team role, with her space token, account token and grant.
  assert.equal((await ana.get("/w/notes/-/settings")).status, 200);
  assert.equal(await mcpStatus(app, tokens.space, "/mcp/"), 200);
  assert.ok((await restSpaces(app, tokens.account)).includes("notes"));
  const [grant] = await db<{ space_ids: string[] }>`
    SELECT space_ids FROM oauth_grants WHERE id = 'g1'`;
  assert.deepEqual(grant!.space_ids, ["notes"]);

  // Moving a team's space is refused, whoever asks.
  const again = await ana.submit("/w/notes/-/settings/team", { team: "lab", confirm: "yes" });
  assert.match(await html(again, 403), /Only the owner of the personal space/);
  // Bo removed from the team: his access ends with it.
  await ana.submit(`/teams/lab/members/${bo.id}/remove`, { confirm: "yes" });
  assert.equal((await bo.get("/w/notes/Plans")).status, 404);
});

Deno.test("a personal space's settings point to creating a team when its owner has none", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "notes", ownerAccountId: ana.id });
  const page = await html(await ana.get("/w/notes/-/settings"), 200);
  assert.match(page, /href="\/account#teams">create a team<\/a>/);
  assert.doesNotMatch(page, /settings\/team/);
});

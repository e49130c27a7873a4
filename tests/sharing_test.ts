import assert from "node:assert/strict";
import { createToken } from "../src/auth/tokens.ts";
import { addTeamMember, createTeam } from "../src/teams/teams.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { browser } from "./browser.ts";
import { freshDb } from "./helpers.ts";
import { callError, callOk, mcpClient } from "./mcp_helpers.ts";
import { html, person, seedPages, spaceApp } from "./space_helpers.ts";

// Sharing as a docs team expects (issue 30): a read-only viewer, a space shared with one
// person, and invitations by a link.

const RUNBOOK = "# Runbook\n\nWhen a node is down, drain it first, then restart the agent.\n";

Deno.test("a viewer reads, searches and asks a space over the web, REST and MCP, and every write is refused", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  const vi = await person(app, db, "vi@example.com", "Vi");
  await createTeam(db, { id: "ops", name: "Ops", ownerAccountId: ana.id });
  await addTeamMember(db, {
    actorId: ana.id,
    teamId: "ops",
    email: "vi@example.com",
    role: "viewer",
  });
  await createWiki(db, { id: "handbook", visibility: "private", ownerTeamId: "ops" });
  await seedPages(deps, "handbook", { Runbook: RUNBOOK });
  await db`UPDATE wikis SET agent_proposals = true WHERE id = 'handbook'`;
  const read = (await createToken(db, { accountId: vi.id, kind: "account", name: "cli" })).token;
  const propose = (await createToken(db, {
    accountId: vi.id,
    kind: "account",
    name: "agent",
    scope: "read_propose",
  })).token;
  const bearer = { Authorization: `Bearer ${read}` };

  // Reading: web, REST, MCP (account and space tokens).
  const page = await html(await vi.get("/w/handbook/Runbook"), 200);
  assert.match(page, /drain it first/);
  assert.doesNotMatch(page, /\/-\/edit\/|>New page<|>Import<|>Settings</, "no write tools shown");
  assert.equal((await vi.get("/w/handbook/-/search?q=node")).status, 200);
  const spaces = await (await app.request("/api/v1/spaces", { headers: bearer })).json();
  assert.deepEqual(spaces.spaces.map((s: { id: string; role: string }) => [s.id, s.role]), [
    ["handbook", "viewer"],
  ]);
  const ask = await app.request("/api/v1/spaces/handbook/ask", {
    method: "POST",
    headers: { ...bearer, "Content-Type": "application/json" },
    body: JSON.stringify({ question: "What do I do when a node is down?" }),
  });
  assert.equal(ask.status, 200);
  assert.match((await ask.json()).answer, /drain it first/);
  const client = await mcpClient(app, "/mcp/", read);
  const found = await callOk<{ results: { page: string }[] }>(client, "search", {
    space: "handbook",
    query: "node down",
  });
  assert.equal(found.results[0]?.page, "Runbook");
  await client.close();
  const spaceToken = await createToken(db, {
    accountId: vi.id,
    kind: "space",
    spaceId: "handbook",
    name: "read",
  });
  const scoped = await mcpClient(app, "/mcp/", spaceToken.token);
  await callOk(scoped, "get_page", { page: "Runbook" });
  await scoped.close();

  // Writing: the REST page write, the web editor, a file, a proposal, a token that proposes.
  const put = await app.request("/api/v1/spaces/handbook/pages/Runbook", {
    method: "PUT",
    headers: { ...bearer, "Content-Type": "text/markdown" },
    body: "# Runbook\n\nGone.\n",
  });
  assert.equal(put.status, 403);
  assert.match((await put.json()).detail, /You can read "handbook" but not change it/);
  // A sync writes the Git folder's pages over the space's: the web's Sync now needs a writer.
  const sync = await app.request("/api/v1/spaces/handbook/sync", {
    method: "POST",
    headers: bearer,
  });
  assert.equal(sync.status, 403);
  assert.match((await sync.json()).detail, /You can read "handbook" but not change it/);
  const save = await vi.submit("/w/handbook/-/edit/Runbook", {
    markdown: "# Runbook\n\nGone.\n",
    base_revision: "1",
    action: "save",
  });
  assert.equal(save.status, 403);
  assert.equal((await vi.get("/w/handbook/-/new")).status, 403);
  const upload = await vi.upload("/w/handbook/-/files", [new File(["x"], "a.txt")]);
  assert.equal(upload.status, 403);
  assert.equal((await vi.get("/w/handbook/-/feedback")).status, 403, "reviews are an admin's");
  const agent = await mcpClient(app, "/mcp/", propose);
  const refused = await callError(agent, "propose_edit", {
    space: "handbook",
    page: "Runbook",
    markdown: "# Runbook\n\nGone.\n",
    base_revision: 1,
  });
  assert.match(refused, /You can read space "handbook" but not change it/);
  await agent.close();
  await assert.rejects(
    createToken(db, {
      accountId: vi.id,
      kind: "space",
      spaceId: "handbook",
      name: "writer",
      scope: "read_propose",
    }),
    /its tokens may only read/,
  );
  const [kept] = await db<{ markdown: string; revision: number }>`
    SELECT markdown, revision FROM pages WHERE wiki_id = 'handbook'`;
  assert.deepEqual({ ...kept }, { markdown: RUNBOOK, revision: 1 });
  const [requests] = await db<{ n: number }>`SELECT count(*)::int AS n FROM change_requests`;
  assert.equal(requests!.n, 0);
});

Deno.test("a personal space shared with one person by email reaches them once they sign up, as the role chosen, until the share ends", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "notes", visibility: "private", ownerAccountId: ana.id });
  await seedPages(deps, "notes", { Runbook: RUNBOOK });

  // Sharing says the same whether or not an account has the email.
  const shared = await ana.submit("/w/notes/-/people", { email: "Bo@example.com", role: "viewer" });
  assert.equal(shared.status, 303);
  const people = await html(await ana.get(shared.headers.get("location")!), 200);
  assert.match(people, /Shared with Bo@example\.com as viewer/);
  assert.match(people, /Ana \(ana@example\.com\)<\/td><td>owner/);
  assert.match(
    people,
    /Bo@example\.com<\/td><td>viewer<\/td><td>shared with them<\/td><td>Read, search, ask/,
  );

  const bo = await person(app, db, "bo@example.com", "Bo");
  assert.match(await html(await bo.get("/w/notes/Runbook"), 200), /drain it first/);
  assert.equal((await bo.get("/w/notes/-/edit/Runbook")).status, 403);
  assert.equal((await bo.get("/w/notes/-/people")).status, 403, "people are managed by admins");

  // A member share writes; the owner ends it and the space is gone for them.
  await ana.submit("/w/notes/-/people", { email: "bo@example.com", role: "member" });
  assert.equal((await bo.get("/w/notes/-/edit/Runbook")).status, 200);
  const removed = await ana.submit("/w/notes/-/people/remove?email=bo%40example.com");
  assert.equal(removed.status, 303);
  assert.equal((await bo.get("/w/notes/Runbook")).status, 404);
  assert.equal(
    (await ana.submit("/w/notes/-/people", { email: "not an email", role: "viewer" })).status,
    400,
  );
});

Deno.test("an invitation link signs a new person up into the team as its role; a revoked or expired link says so", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await ana.submit("/teams", { id: "ops", name: "Ops" });
  await createWiki(db, { id: "handbook", visibility: "private", ownerTeamId: "ops" });

  const made = await html(await ana.submit("/teams/ops/links", { role: "viewer" }), 201);
  const url = /<code id="invite-url">([^<]+)<\/code>/.exec(made)![1]!;
  const path = new URL(url).pathname;
  assert.match(made, /joins as <strong>viewer<\/strong>/);

  // Signed out: the link says which team and role, and offers sign-up that comes back here.
  const newcomer = browser(app);
  const invite = await html(await newcomer.get(path), 200);
  assert.match(invite, /invited to the team <strong>Ops<\/strong> as <strong>viewer<\/strong>/);
  assert.match(invite, new RegExp(`/signup\\?next=${encodeURIComponent(path)}`));
  const signedUp = await newcomer.post("/signup", {
    _csrf: await newcomer.token(`/signup?next=${encodeURIComponent(path)}`),
    email: "cy@example.com",
    name: "Cy",
    password: "a long enough password",
    next: path,
  });
  assert.equal(signedUp.headers.get("location"), path);
  const join = await html(await newcomer.get(path), 200);
  assert.match(join, /Join Ops as Cy/);
  const joined = await newcomer.post(path, { _csrf: await newcomer.token(path) });
  assert.equal(joined.headers.get("location"), "/teams/ops?joined");
  assert.match(await html(await newcomer.get("/teams/ops"), 200), /your role: viewer/);
  assert.equal((await newcomer.get("/w/handbook")).status, 200);
  assert.equal((await newcomer.get("/w/handbook/-/new")).status, 403);

  // The team page lists the live link; revoked, it answers 410 with the reason.
  const team = await html(await ana.get("/teams/ops"), 200);
  const revoke = /action="(\/teams\/ops\/links\/[^"]+\/revoke)"/.exec(team)![1]!;
  assert.equal((await ana.submit(revoke)).status, 303);
  assert.match(await html(await browser(app).get(path), 410), /was revoked/);
  await db`UPDATE team_invite_links SET revoked_at = NULL, expires_at = now() - interval '1 minute'`;
  assert.match(await html(await browser(app).get(path), 410), /has expired/);
  assert.match(await html(await browser(app).get("/invite/wk_inv_nope"), 404), /not valid/);
});

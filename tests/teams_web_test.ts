import assert from "node:assert/strict";
import { browser as baseBrowser } from "./browser.ts";
import { Hono } from "hono";
import type { Db } from "../src/db/db.ts";
import { requestId } from "../src/http/request_id.ts";
import { webRoutes } from "../src/web/web_routes.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testDeps } from "./helpers.ts";

/** The web app (which carries the team pages) alone in an app. */
function webApp(db: Db): Hono {
  const app = new Hono();
  app.use(requestId());
  app.route("/", webRoutes(testDeps(db)));
  return app;
}

/** The shared browser, posting forms with the session's CSRF token unless told not to. */
function browser(app: Hono) {
  const b = baseBrowser(app);
  return {
    get: (path: string) => b.get(path),
    /** Posts a form as the page's own form would, with the session's CSRF token. */
    post: async (path: string, fields: Record<string, string> = {}) =>
      b.post(path, { _csrf: await b.token("/account"), ...fields }),
    postWithout: (path: string, fields: Record<string, string>) => b.post(path, fields),
  };
}

type Browser = ReturnType<typeof browser>;

/** Signs up a new account in a new browser. */
async function person(app: Hono, email: string, name: string): Promise<Browser> {
  const b = browser(app);
  const page = await (await b.get("/signup")).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
  const res = await b.postWithout("/signup", {
    _csrf: csrf,
    email,
    name,
    password: "a long enough password",
  });
  assert.equal(res.status, 303);
  return b;
}

async function accountId(db: Db, email: string): Promise<string> {
  const [row] = await db<{ id: string }>`SELECT id FROM accounts WHERE email = ${email}`;
  return row!.id;
}

async function roles(db: Db, teamId: string): Promise<Record<string, string>> {
  const rows = await db<{ email: string; role: string }>`
    SELECT a.email, m.role FROM memberships m JOIN accounts a ON a.id = m.account_id
    WHERE m.team_id = ${teamId} ORDER BY a.email`;
  return Object.fromEntries(rows.map((r) => [r.email, r.role]));
}

Deno.test("POST /teams creates a team with its creator as owner; its page is for members only", async () => {
  await using db = await freshDb();
  const app = webApp(db);
  const ana = await person(app, "ana@example.com", "Ana");
  const bo = await person(app, "bo@example.com", "Bo");
  const created = await ana.post("/teams", { id: "Research", name: "Research lab" });
  assert.equal(created.status, 303);
  assert.equal(created.headers.get("location"), "/teams/research");
  const page = await ana.get("/teams/research");
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /<h1>Research lab<\/h1>/);
  assert.match(html, /ana@example\.com/);
  assert.match(html, /your role: owner/);
  assert.match(html, /<label for="field-email">Email of their account<\/label>/);
  await createWiki(db, { id: "lab-notes", ownerTeamId: "research" });
  const account = await (await ana.get("/account")).text();
  assert.match(account, /href="\/teams\/research">Research lab<\/a> \(owner\)/);
  assert.match(account, /lab-notes/);
  assert.equal((await bo.get("/teams/research")).status, 404, "not a member: no such team");
  assert.equal((await bo.get("/teams/nowhere")).status, 404);
  const anonymous = await app.request("/teams/research");
  assert.equal(anonymous.status, 303);
  assert.equal(anonymous.headers.get("location"), "/signin");
  const taken = await bo.post("/teams", { id: "research" });
  assert.equal(taken.status, 409);
  assert.match(await taken.text(), /Team &quot;research&quot; already exists/);
  const bad = await bo.post("/teams", { id: "no spaces!" });
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /must be 1-64 characters/);
});

Deno.test("owners and admins invite by email, members join on accepting; members cannot invite", async () => {
  await using db = await freshDb();
  const app = webApp(db);
  const ana = await person(app, "ana@example.com", "Ana");
  const bo = await person(app, "bo@example.com", "Bo");
  const cy = await person(app, "cy@example.com", "Cy");
  await person(app, "di@example.com", "Di");
  await ana.post("/teams", { id: "t" });
  assert.equal(
    (await ana.post("/teams/t/members", { email: "BO@example.com", role: "member" })).status,
    303,
  );
  assert.equal((await bo.get("/teams/t")).status, 404, "not a member before accepting");
  assert.equal((await bo.post("/teams/t/invitation/accept")).status, 303);
  assert.equal((await bo.get("/teams/t")).status, 200, "bo is a member now");
  const unknown = await ana.post("/teams/t/members", {
    email: "nobody@example.com",
    role: "member",
  });
  assert.equal(unknown.status, 303, "the same answer as for an account: no account oracle");
  const again = await ana.post("/teams/t/members", { email: "bo@example.com", role: "admin" });
  assert.equal(again.status, 303);
  assert.equal((await roles(db, "t"))["bo@example.com"], "member", "a member is not re-invited");
  const byMember = await bo.post("/teams/t/members", { email: "cy@example.com", role: "member" });
  assert.equal(byMember.status, 403);
  assert.match(await byMember.text(), /Only owners and admins/);
  assert.equal(
    (await cy.post("/teams/t/members", { email: "cy@example.com", role: "owner" })).status,
    404,
  );
  const badRole = await ana.post("/teams/t/members", { email: "cy@example.com", role: "boss" });
  assert.equal(badRole.status, 400);

  const boId = await accountId(db, "bo@example.com");
  assert.equal((await ana.post(`/teams/t/members/${boId}/role`, { role: "admin" })).status, 303);
  assert.equal(
    (await bo.post("/teams/t/members", { email: "cy@example.com", role: "member" })).status,
    303,
  );
  assert.equal((await cy.post("/teams/t/invitation/accept")).status, 303);
  const adminAddsOwner = await bo.post("/teams/t/members", {
    email: "di@example.com",
    role: "owner",
  });
  assert.equal(adminAddsOwner.status, 403);
  const anaId = await accountId(db, "ana@example.com");
  assert.equal((await bo.post(`/teams/t/members/${anaId}/role`, { role: "member" })).status, 403);
  const cyId = await accountId(db, "cy@example.com");
  assert.equal((await bo.post(`/teams/t/members/${cyId}/role`, { role: "owner" })).status, 403);
  assert.equal((await bo.post(`/teams/t/members/${cyId}/role`, { role: "admin" })).status, 303);
  assert.deepEqual(await roles(db, "t"), {
    "ana@example.com": "owner",
    "bo@example.com": "admin",
    "cy@example.com": "admin",
  });
});

Deno.test("the last owner cannot leave or step down until another member is owner", async () => {
  await using db = await freshDb();
  const app = webApp(db);
  const ana = await person(app, "ana@example.com", "Ana");
  const bo = await person(app, "bo@example.com", "Bo");
  await ana.post("/teams", { id: "t" });
  await ana.post("/teams/t/members", { email: "bo@example.com", role: "member" });
  await bo.post("/teams/t/invitation/accept");
  const unconfirmed = await ana.post("/teams/t/leave");
  assert.equal(unconfirmed.status, 400);
  assert.match(await unconfirmed.text(), /Tick the box to confirm that you leave the team/);
  const leave = await ana.post("/teams/t/leave", { confirm: "yes" });
  assert.equal(leave.status, 403);
  assert.match(await leave.text(), /needs another owner before its last owner steps down/);
  const anaId = await accountId(db, "ana@example.com");
  assert.equal((await ana.post(`/teams/t/members/${anaId}/role`, { role: "admin" })).status, 403);
  const boId = await accountId(db, "bo@example.com");
  assert.equal((await ana.post(`/teams/t/members/${boId}/role`, { role: "owner" })).status, 303);
  const left = await ana.post("/teams/t/leave", { confirm: "yes" });
  assert.equal(left.status, 303);
  assert.equal(left.headers.get("location"), "/account");
  assert.equal((await ana.get("/teams/t")).status, 404);
  assert.deepEqual(await roles(db, "t"), { "bo@example.com": "owner" });
  assert.equal(
    (await bo.post("/teams/t/leave", { confirm: "yes" })).status,
    403,
    "bo is the last owner now",
  );
  assert.equal(
    (await ana.post("/teams/t/leave", { confirm: "yes" })).status,
    404,
    "ana is no longer a member",
  );
});

Deno.test("team forms need the session's CSRF token", async () => {
  await using db = await freshDb();
  const app = webApp(db);
  const ana = await person(app, "ana@example.com", "Ana");
  assert.equal((await ana.postWithout("/teams", { id: "t" })).status, 403);
  await ana.post("/teams", { id: "t" });
  assert.equal((await ana.postWithout("/teams/t/leave", { _csrf: "x".repeat(43) })).status, 403);
  assert.equal(
    (await ana.postWithout("/teams/t/members", { email: "a@b.c", role: "member" })).status,
    403,
  );
  assert.deepEqual(await roles(db, "t"), { "ana@example.com": "owner" });
});

Deno.test("a team's page lists the spaces it owns", async () => {
  await using db = await freshDb();
  const app = webApp(db);
  const ana = await person(app, "ana@example.com", "Ana");
  assert.equal((await ana.post("/teams", { id: "research", name: "Research" })).status, 303);
  const before = await (await ana.get("/teams/research")).text();
  assert.match(before, /<h2>Spaces<\/h2><p class="hint">No spaces yet/);
  await createWiki(db, { id: "lab-notes", title: "Lab notes", ownerTeamId: "research" });
  await createWiki(db, { id: "mine", title: "Mine" });
  const page = await (await ana.get("/teams/research")).text();
  assert.match(page, /<li><a href="\/w\/lab-notes">Lab notes<\/a> <code>lab-notes<\/code>/);
  assert.doesNotMatch(page, /href="\/w\/mine"/);
});

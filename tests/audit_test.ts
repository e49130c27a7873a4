import assert from "node:assert/strict";
import type { Hono } from "hono";
import { createAccount } from "../src/accounts/accounts.ts";
import { deleteOldAuditEvents } from "../src/audit/store.ts";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createSession } from "../src/sessions/sessions.ts";
import { createTeam, setMemberRole } from "../src/teams/teams.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { browser } from "./browser.ts";
import { freshDb, testApp } from "./helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";

type Entry = {
  wiki_id: string | null;
  account_id: string;
  credential_kind: string;
  credential_id: string;
  channel: string;
  action: string;
  target: string | null;
  outcome: string;
  request_id: string | null;
};

async function entries(db: Db): Promise<Entry[]> {
  return await db<Entry>`
    SELECT wiki_id, account_id, credential_kind, credential_id, channel, action, target, outcome,
           request_id
    FROM audit_events ORDER BY id`;
}

/** Ana with her space `notes` (one page) and an account token; Bo with his own space. */
async function setUp(db: Db) {
  const ana = await createAccount(db, { email: "ana@example.com", name: "Ana" });
  const bo = await createAccount(db, { email: "bo@example.com", name: "Bo" });
  await createWiki(db, { id: "notes", ownerAccountId: ana.id });
  await createWiki(db, { id: "bo-notes", ownerAccountId: bo.id });
  const { deps } = testApp(db);
  await writePage(deps, {
    wikiId: "notes",
    path: "Runbook",
    markdown: "# Runbook\nRestart the service with care.",
  }, { source: "test" });
  const made = await createToken(db, { accountId: ana.id, kind: "account", name: "laptop" });
  return { ana, bo, token: made.token, tokenId: made.record.id };
}

Deno.test("MCP tool calls made with a token are recorded: who, which credential, what, outcome", async () => {
  await using db = await freshDb();
  const { ana, token, tokenId } = await setUp(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/", token);
  await callOk(client, "search", { query: "restart" });
  await callOk(client, "get_page", { page: "Runbook" });
  const missing = await client.callTool({ name: "get_page", arguments: { page: "Nowhere" } });
  assert.equal(missing.isError, true);
  const foreign = await client.callTool({
    name: "search",
    arguments: { space: "bo-notes", query: "x" },
  });
  assert.equal(foreign.isError, true);
  const rows = await entries(db);
  assert.deepEqual(
    rows.map((r) => [r.wiki_id, r.channel, r.action, r.target, r.outcome]),
    [
      ["notes", "mcp", "search", null, "ok"],
      ["notes", "mcp", "get_page", "Runbook", "ok"],
      ["notes", "mcp", "get_page", "Nowhere", "page_not_found"],
      // A space the credential does not reach is never attributed to it.
      [null, "mcp", "search", null, "wiki_not_found"],
    ],
  );
  for (const row of rows) {
    assert.equal(row.account_id, ana.id);
    assert.equal(row.credential_kind, "account_token");
    assert.equal(row.credential_id, tokenId);
    assert.ok(row.request_id);
  }
  assert.ok(!JSON.stringify(rows).includes(token), "no secret in the audit log");
});

Deno.test("anonymous calls on public endpoints are not audited", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "garden", visibility: "public" });
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/hub/");
  await callOk(client, "list_wikis");
  assert.equal((await app.request("/api/v1/public/wikis/garden/pages")).status, 200);
  assert.deepEqual(await entries(db), []);
});

Deno.test("REST requests on a space are recorded with the operation, page and outcome", async () => {
  await using db = await freshDb();
  const { token } = await setUp(db);
  const { app } = testApp(db);
  const send = (method: string, path: string, body?: string) =>
    app.request(`/api/v1/spaces/${path}`, {
      method,
      body,
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "text/markdown",
        "User-Agent": "curl/8",
      },
    });
  assert.equal((await send("PUT", "notes/pages/Guides%2FSetup", "# Setup\nSteps.")).status, 201);
  assert.equal((await send("GET", "notes/pages/Guides%2FSetup")).status, 200);
  assert.equal((await send("GET", "notes/search?q=steps")).status, 200);
  assert.equal((await send("DELETE", "notes/pages/Nope")).status, 404);
  assert.equal((await send("GET", "bo-notes/pages")).status, 404);
  const rows = await entries(db);
  assert.deepEqual(
    rows.map((r) => [r.wiki_id, r.channel, r.action, r.target, r.outcome]),
    [
      ["notes", "rest", "write_page", "Guides/Setup", "ok"],
      ["notes", "rest", "get_page", "Guides/Setup", "ok"],
      ["notes", "rest", "search", null, "ok"],
      ["notes", "rest", "delete_page", "Nope", "page_not_found"],
      [null, "rest", "list_pages", null, "wiki_not_found"],
    ],
  );
});

Deno.test("when the audit log cannot be written, the call still succeeds and the failure is logged", async () => {
  await using db = await freshDb();
  const { token } = await setUp(db);
  const { app, deps } = testApp(db);
  await db.exec("DROP TABLE audit_events");
  const client = await mcpClient(app, "/mcp/", token);
  await callOk(client, "search", { query: "restart" });
  assert.ok(deps.logLines.some((l) => l.includes("audit entry not recorded")));
});

Deno.test("entries past the retention are pruned, newer ones kept", async () => {
  await using db = await freshDb();
  const { ana, token } = await setUp(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/", token);
  await callOk(client, "search", { query: "restart" });
  await callOk(client, "search", { query: "care" });
  await db`UPDATE audit_events SET at = now() - interval '91 days'
    WHERE id = (SELECT min(id) FROM audit_events)`;
  await deleteOldAuditEvents(db, 90);
  const rows = await db<{ account_id: string }>`SELECT account_id FROM audit_events`;
  assert.deepEqual(rows.map((r) => r.account_id), [ana.id]);
});

/** A browser signed in as `accountId` (a session made directly, no sign-up form). */
async function signedInAs(app: Hono, db: Db, accountId: string) {
  const b = browser(app);
  const session = await createSession(db, accountId, "test");
  b.jar.set("wiki_session", session.token);
  return b;
}

Deno.test("GET /w/:id/-/audit shows owners and admins the log; members get 403, others 404", async () => {
  await using db = await freshDb();
  const owner = await createAccount(db, { email: "owner@example.com", name: "Olga" });
  const admin = await createAccount(db, { email: "admin@example.com", name: "Adi" });
  const member = await createAccount(db, { email: "member@example.com", name: "Mo" });
  const outsider = await createAccount(db, { email: "out@example.com", name: "Otto" });
  await createTeam(db, { id: "lab", ownerAccountId: owner.id });
  await setMemberRole(db, "lab", admin.id, "admin");
  await setMemberRole(db, "lab", member.id, "member");
  await createWiki(db, { id: "lab-notes", title: "Lab notes", ownerTeamId: "lab" });
  const made = await createToken(db, { accountId: member.id, kind: "account", name: "mo-cli" });
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/", made.token);
  await client.callTool({ name: "get_page", arguments: { space: "lab-notes", page: "Plan" } });

  for (const who of [owner, admin]) {
    const res = await (await signedInAs(app, db, who.id)).get("/w/lab-notes/-/audit");
    assert.equal(res.status, 200, who.email);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const html = await res.text();
    assert.match(html, /Audit log of Lab notes/);
    assert.match(html, /<td>Mo<\/td>/);
    assert.match(html, /account token “mo-cli”/);
    assert.match(html, /MCP <code>get_page<\/code> Plan/);
    assert.match(html, /page_not_found/);
    assert.ok(!html.includes(made.token));
  }
  const asMember = await (await signedInAs(app, db, member.id)).get("/w/lab-notes/-/audit");
  assert.equal(asMember.status, 403);
  const asOutsider = await (await signedInAs(app, db, outsider.id)).get("/w/lab-notes/-/audit");
  assert.equal(asOutsider.status, 404);
  const noSuch = await (await signedInAs(app, db, owner.id)).get("/w/nowhere/-/audit");
  assert.equal(noSuch.status, 404);
  const signedOut = await app.request("/w/lab-notes/-/audit");
  assert.equal(signedOut.status, 303);
  assert.equal(signedOut.headers.get("location"), "/signin?next=%2Fw%2Flab-notes%2F-%2Faudit");
});

Deno.test("the audit page shows 50 entries at a time, newest first, with a link to older ones", async () => {
  await using db = await freshDb();
  const { ana, token } = await setUp(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/", token);
  for (let i = 0; i < 52; i++) await callOk(client, "search", { query: `q${i}` });
  const b = await signedInAs(app, db, ana.id);
  const first = await (await b.get("/w/notes/-/audit")).text();
  assert.equal(first.match(/<tr>/g)?.length, 51, "a header row and 50 entries");
  const older = /href="(\/w\/notes\/-\/audit\?before=\d+)"/.exec(first)?.[1];
  assert.ok(older, "a link to older entries");
  const second = await (await b.get(older)).text();
  assert.equal(second.match(/<tr>/g)?.length, 3, "a header row and the 2 oldest entries");
  assert.doesNotMatch(second, /Older entries/);
  assert.match(second, /href="\/w\/notes\/-\/audit">Newest entries/);
});

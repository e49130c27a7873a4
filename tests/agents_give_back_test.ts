import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/client@2.4.0";
import type { Hono } from "hono";
import { createToken } from "../src/auth/tokens.ts";
import { decidePropose } from "../src/feedback/may_propose.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { callError, callOk } from "./mcp_helpers.ts";
import { html, person, seedPages, spaceApp } from "./space_helpers.ts";

// Agents that give back: problem reports owners see, and proposed edits a person reviews.

/**
 * A real MCP SDK client that names itself in User-Agent (a stateless server never sees
 * `clientInfo`, so that header is the client's name in reports and proposals).
 */
async function mcpClient(app: Hono, path: string, token?: string): Promise<Client> {
  const client = new Client({ name: "wiki-tests", version: "1.0.0" });
  const headers: Record<string, string> = { "User-Agent": "wiki-tests" };
  if (token) headers.Authorization = `Bearer ${token}`;
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://localhost${path}`), {
      fetch: async (url, init) => await app.request(url.toString(), init),
      requestInit: { headers },
    }),
  );
  return client;
}

/** Ana owns a private space "notes" with one page, and a public wiki "garden". */
async function world() {
  const db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "notes", visibility: "private", ownerAccountId: ana.id });
  await createWiki(db, { id: "garden", visibility: "public", ownerAccountId: ana.id });
  await seedPages(deps, "notes", { Setup: "# Setup\n\nRun the installer.\n" });
  await seedPages(deps, "garden", { Compost: "# Compost\n\nCompost needs air.\n" });
  const token = async (scope: "read" | "read_propose", kind: "account" | "space" = "space") =>
    (await createToken(db, {
      accountId: ana.id,
      kind,
      spaceId: kind === "space" ? "notes" : undefined,
      name: `${scope}-${kind}`,
      scope,
    })).token;
  return {
    db,
    app,
    deps,
    ana,
    token,
    async [Symbol.asyncDispose]() {
      await db[Symbol.asyncDispose]();
    },
  };
}

Deno.test("an agent reports a problem over MCP and the owner sees it on the feedback page, then resolves it", async () => {
  await using w = await world();
  const client = await mcpClient(w.app, "/mcp/", await w.token("read"));
  const out = await callOk<{ reported: boolean; page: string; id: number }>(
    client,
    "report_problem",
    { page: "Setup", kind: "outdated", note: "The installer was replaced by a script in v2" },
  );
  assert.equal(out.reported, true);
  assert.equal(out.page, "Setup");
  const page = await html(await w.ana.get("/w/notes/-/feedback"), 200);
  assert.match(page, /The installer was replaced by a script in v2/);
  assert.match(page, /outdated/);
  assert.match(page, /wiki-tests/, "the client that sent it is named");
  const done = await w.ana.submit(`/w/notes/-/feedback/reports/${out.id}/resolve`);
  assert.equal(done.status, 303);
  const after = await html(await w.ana.get("/w/notes/-/feedback"), 200);
  assert.match(after, /Reported problems \(0 open\)/);
  assert.match(after, /resolved/);
});

Deno.test("report_problem is bounded: a long note is refused, an unknown kind too", async () => {
  await using w = await world();
  const client = await mcpClient(w.app, "/mcp/", await w.token("read"));
  const long = await client.callTool({
    name: "report_problem",
    arguments: { page: "Setup", kind: "wrong", note: "x".repeat(2001) },
  });
  assert.equal(long.isError, true);
  const kind = await client.callTool({
    name: "report_problem",
    arguments: { page: "Setup", kind: "boring", note: "meh" },
  });
  assert.equal(kind.isError, true);
  const [row] = await w.db<{ n: number }>`SELECT count(*)::int AS n FROM page_reports`;
  assert.equal(row!.n, 0);
});

Deno.test("a public wiki takes anonymous reports on the hub under their own small budget", async () => {
  await using w = await world();
  const client = await mcpClient(w.app, "/mcp/hub/");
  for (let i = 0; i < 10; i++) {
    await callOk(client, "report_problem", {
      wiki: "garden",
      page: "Compost",
      kind: "unclear",
      note: `Report ${i}`,
    });
  }
  const refused = await callError(client, "report_problem", {
    wiki: "garden",
    page: "Compost",
    kind: "unclear",
    note: "one too many",
  });
  assert.match(refused, /Too many reports: at most 10 an hour/);
  // Reading still works: reports have a budget of their own.
  await callOk(client, "get_page", { wiki: "garden", page: "Compost" });
  const page = await html(await w.ana.get("/w/garden/-/feedback"), 200);
  assert.match(page, /Report 9/);
  assert.match(page, /anonymous/);
  // Only owners and admins see a space's feedback.
  const bo = await person(w.app, w.db, "bo@example.com", "Bo");
  assert.equal((await bo.get("/w/garden/-/feedback")).status, 403);
});

Deno.test("REST takes reports for a space with an account token and for a public wiki without one", async () => {
  await using w = await world();
  const token = await w.token("read", "account");
  const res = await w.app.request("/api/v1/spaces/notes/reports", {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ page: "Setup", kind: "wrong", note: "Step 2 is missing" }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  assert.equal((await res.json()).page, "Setup");
  const anon = await w.app.request("/api/v1/public/wikis/garden/reports", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ page: "Compost", kind: "missing", note: "Nothing on worms" }),
  });
  assert.equal(anon.status, 201, await anon.clone().text());
  const bad = await w.app.request("/api/v1/public/wikis/garden/reports", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ page: "Compost", kind: "nope", note: "" }),
  });
  assert.equal(bad.status, 400);
  assert.match(bad.headers.get("content-type") ?? "", /problem\+json/);
  const page = await html(await w.ana.get("/w/notes/-/feedback"), 200);
  assert.match(page, /Step 2 is missing/);
});

Deno.test("a read-only token's propose_edit is refused with a clear error and nothing is stored", async () => {
  await using w = await world();
  const client = await mcpClient(w.app, "/mcp/", await w.token("read"));
  const text = await callError(client, "propose_edit", {
    page: "Setup",
    markdown: "# Setup\n\nRun the script.\n",
    base_revision: 1,
  });
  assert.match(text, /This token may only read: create a token with the scope "read and propose"/);
  const [row] = await w.db<{ n: number }>`SELECT count(*)::int AS n FROM change_requests`;
  assert.equal(row!.n, 0);
});

Deno.test("a proposal waits for review; a declined one changes nothing", async () => {
  await using w = await world();
  const client = await mcpClient(w.app, "/mcp/", await w.token("read_propose"));
  const out = await callOk<{ status: string; id: number; review_url: string }>(
    client,
    "propose_edit",
    {
      page: "Setup",
      markdown: "# Setup\n\nRun the script instead.\n",
      base_revision: 1,
      summary: "The installer is gone",
    },
  );
  assert.equal(out.status, "open");
  assert.equal(out.review_url, `http://wiki.test/w/notes/-/proposals/${out.id}`);
  const page = await callOk<{ markdown: string; revision: number }>(client, "get_page", {
    page: "Setup",
  });
  assert.equal(page.revision, 1, "nothing is published before a person accepts");
  const review = await html(await w.ana.get(`/w/notes/-/proposals/${out.id}`), 200);
  assert.match(review, /<del>- Run the installer\.\n<\/del>/);
  assert.match(review, /<ins>\+ Run the script instead\.\n<\/ins>/);
  const declined = await w.ana.submit(`/w/notes/-/proposals/${out.id}/decline`, {
    note: "We keep the installer",
  });
  assert.equal(declined.status, 303);
  const after = await callOk<{ markdown: string; revision: number }>(client, "get_page", {
    page: "Setup",
  });
  assert.equal(after.revision, 1);
  assert.match(after.markdown, /Run the installer/);
  const [row] = await w.db<{ status: string; decision_note: string }>`
    SELECT status, decision_note FROM change_requests WHERE id = ${out.id}`;
  assert.deepEqual({ ...row }, { status: "declined", decision_note: "We keep the installer" });
  // A decided proposal cannot be accepted afterwards.
  const late = await w.ana.submit(`/w/notes/-/proposals/${out.id}/accept`, {
    markdown: "# Setup\n\nsneaky\n",
    seen_revision: "1",
  });
  assert.equal(late.status, 400);
  assert.equal(
    (await callOk<{ revision: number }>(client, "get_page", { page: "Setup" })).revision,
    1,
  );
});

Deno.test("an accepted proposal (edited first) becomes a revision credited to the proposer and client", async () => {
  await using w = await world();
  const client = await mcpClient(w.app, "/mcp/", await w.token("read_propose"));
  const out = await callOk<{ id: number }>(client, "propose_edit", {
    page: "Setup",
    markdown: "# Setup\n\nRun the script.\n",
    base_revision: 1,
  });
  // The page moves on meanwhile: the review shows both diffs.
  await seedPages(w.deps, "notes", { Setup: "# Setup\n\nRun the installer as root.\n" });
  const review = await html(await w.ana.get(`/w/notes/-/proposals/${out.id}`), 200);
  assert.match(review, /Against the current text \(revision 2\)/);
  assert.match(review, /Against the revision it started from \(1\)/);
  const accepted = await w.ana.submit(`/w/notes/-/proposals/${out.id}/accept`, {
    markdown: "# Setup\n\nRun the script as root.\n",
    seen_revision: "2",
  });
  assert.equal(accepted.status, 303);
  const page = await callOk<{ markdown: string; revision: number }>(client, "get_page", {
    page: "Setup",
  });
  assert.equal(page.revision, 3);
  assert.match(page.markdown, /Run the script as root/);
  const history = await html(await w.ana.get("/w/notes/-/history/Setup"), 200);
  assert.match(history, /proposed by Ana with wiki-tests/);
});

Deno.test("a proposal without the final newline shows only its real change, and accepting it closes the outdated report it answers", async () => {
  await using w = await world();
  const client = await mcpClient(w.app, "/mcp/", await w.token("read_propose"));
  await callOk(client, "report_problem", {
    page: "Setup",
    kind: "outdated",
    note: "The installer was replaced by a script",
  });
  await callOk(client, "report_problem", { page: "Setup", kind: "unclear", note: "Which one?" });
  const out = await callOk<{ id: number }>(client, "propose_edit", {
    page: "Setup",
    // The page ends with a newline; the proposal does not.
    markdown: "# Setup\n\nRun the installer.\n\nThen run the script.",
    base_revision: 1,
  });
  const review = await html(await w.ana.get(`/w/notes/-/proposals/${out.id}`), 200);
  assert.match(review, /2 lines added, 0 lines removed/, "the unchanged last line is not shown");
  const accepted = await w.ana.submit(`/w/notes/-/proposals/${out.id}/accept`, {
    markdown: "# Setup\n\nRun the installer.\n\nThen run the script.",
    seen_revision: "1",
  });
  assert.equal(accepted.status, 303);
  const reports = await w.db<{ kind: string; resolved: boolean }>`
    SELECT kind, resolved_at IS NOT NULL AS resolved FROM page_reports ORDER BY id`;
  assert.deepEqual(reports.map((r) => [r.kind, r.resolved]), [
    ["outdated", true],
    ["unclear", false],
  ]);
});

Deno.test("proposals follow the space's setting and a token's direct-write flag", async () => {
  await using w = await world();
  const secret = await w.token("read_propose");
  const client = await mcpClient(w.app, "/mcp/", secret);
  assert.equal(
    (await w.ana.submit("/w/notes/-/feedback/settings", { proposals: "off" })).status,
    303,
  );
  assert.match(
    await callError(client, "propose_edit", { page: "New", markdown: "# New\n", base_revision: 0 }),
    /does not take edits from assistants/,
  );
  await w.ana.submit("/w/notes/-/feedback/settings", { proposals: "on" });
  const [tok] = await w.db<{ id: string }>`SELECT id FROM tokens WHERE scope = 'read_propose'`;
  assert.equal(
    (await w.ana.submit(`/w/notes/-/feedback/tokens/${tok!.id}`, { direct: "on" })).status,
    303,
  );
  const out = await callOk<{ status: string; revision: number }>(client, "propose_edit", {
    page: "New",
    markdown: "# New\n\nWritten at once.\n",
    base_revision: 0,
  });
  assert.deepEqual({ status: out.status, revision: out.revision }, {
    status: "applied",
    revision: 1,
  });
  const [rev] = await w.db<{ source: string; proposed_client: string }>`
    SELECT r.source, r.proposed_client FROM page_revisions r JOIN pages p ON p.id = r.page_id
    WHERE p.path = 'New'`;
  assert.deepEqual({ ...rev }, { source: "proposal", proposed_client: "wiki-tests" });
});

Deno.test("decidePropose: the account's role, scope, space setting and direct writes", () => {
  const base = {
    spaceId: "s",
    accountWrites: true,
    proposalsOn: true,
    credentialKind: "space_token" as const,
    scope: "read_propose",
    directWrites: false,
  };
  assert.deepEqual(decidePropose(base), { ok: true, direct: false });
  assert.deepEqual(decidePropose({ ...base, directWrites: true }), { ok: true, direct: true });
  assert.equal(decidePropose({ ...base, scope: "read" }).ok, false);
  assert.equal(decidePropose({ ...base, accountWrites: false }).ok, false, "a viewer");
  assert.equal(decidePropose({ ...base, proposalsOn: false }).ok, false);
  assert.equal(decidePropose({ ...base, credentialKind: "oauth", scope: "wiki:read" }).ok, false);
  assert.deepEqual(
    decidePropose({ ...base, credentialKind: "oauth", scope: "wiki:read wiki:write" }),
    { ok: true, direct: false },
  );
  // An account token spans spaces: its flag never lets it write directly.
  assert.deepEqual(
    decidePropose({ ...base, credentialKind: "account_token", directWrites: true }),
    { ok: true, direct: false },
  );
});

Deno.test("REST proposals share the rule: a read_propose account token proposes, a read one is refused", async () => {
  await using w = await world();
  const post = (token: string) =>
    w.app.request("/api/v1/spaces/notes/proposals", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ page: "Setup", markdown: "# Setup\n\nREST\n", base_revision: 1 }),
    });
  const refused = await post(await w.token("read", "account"));
  assert.equal(refused.status, 403);
  assert.match((await refused.json()).detail, /This token may only read/);
  const made = await post(await w.token("read_propose", "account"));
  assert.equal(made.status, 201, await made.clone().text());
  const out = await made.json();
  assert.equal(out.status, "open");
  assert.match(await html(await w.ana.get(`/w/notes/-/proposals/${out.id}`), 200), /\+ REST/);
});

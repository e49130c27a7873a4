import assert from "node:assert/strict";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import { freshDb } from "./helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";
import { BASE, grantTokens, oauthApp, signedIn } from "./oauth_helpers.ts";
import { usageWritten } from "../src/usage/usage_writes.ts";

/** How many rows of each table still name the space. */
async function leftovers(db: Db, id: string) {
  const [row] = await db<
    {
      audit: number;
      usage: number;
      uses: number;
      questions: number;
      searches: number;
      grants: number;
      codes: number;
    }
  >`
    SELECT
      (SELECT count(*)::int FROM audit_events WHERE wiki_id = ${id}) AS audit,
      (SELECT count(*)::int FROM usage_daily WHERE wiki_id = ${id}) AS usage,
      (SELECT count(*)::int FROM page_uses WHERE wiki_id = ${id}) AS uses,
      (SELECT count(*)::int FROM ask_questions WHERE wiki_id = ${id}) AS questions,
      (SELECT count(*)::int FROM search_queries WHERE wiki_id = ${id}) AS searches,
      (SELECT count(*)::int FROM oauth_grants WHERE ${id} = ANY (space_ids)) AS grants,
      (SELECT count(*)::int FROM oauth_codes WHERE ${id} = ANY (space_ids)) AS codes`;
  return row!;
}

Deno.test("a deleted space takes its audit, usage, page uses, questions, searches and grants with it; a new space of that id inherits nothing", async () => {
  await using db = await freshDb();
  const { app, deps } = oauthApp(db);
  const ana = await signedIn(app, db, "ana@example.com", ["ana-notes", "ana-other"]);
  await writePage(deps, { wikiId: "ana-notes", path: "Plan", markdown: "# Plan\nLaunch soon." }, {
    source: "test",
  });
  const made = await createToken(db, { accountId: ana.accountId, kind: "account", name: "laptop" });
  const client = await mcpClient(app, "/mcp/", made.token);
  await callOk(client, "search", { space: "ana-notes", query: "launch" });
  await callOk(client, "get_page", { space: "ana-notes", page: "Plan" });
  await callOk(client, "confirm_use", { space: "ana-notes", page: "Plan", revision: 1 });
  await callOk(client, "ask", { space: "ana-notes", question: "When is the launch?" });
  await client.close();
  await grantTokens(app, ana.browser, ["ana-notes", "ana-other"]);
  // Usage is written in batches, off the requests' path: the batch of these calls first.
  await usageWritten(db);
  const before = await leftovers(db, "ana-notes");
  assert.ok(
    before.audit > 0 && before.usage > 0 && before.uses > 0 && before.questions > 0 &&
      before.searches > 0 &&
      before.grants > 0,
    JSON.stringify(before),
  );

  const csrf = await ana.browser.token("/w/ana-notes/-/settings");
  const deleted = await ana.browser.post(`${BASE}/w/ana-notes/-/settings/delete`, {
    _csrf: csrf,
    confirm: "ana-notes",
  });
  assert.equal(deleted.status, 303);
  assert.deepEqual(await leftovers(db, "ana-notes"), {
    audit: 0,
    usage: 0,
    uses: 0,
    questions: 0,
    searches: 0,
    grants: 0,
    codes: 0,
  });
  const [grant] = await db<{ space_ids: string[] }>`SELECT space_ids FROM oauth_grants`;
  assert.deepEqual(grant!.space_ids, ["ana-other"], "the grant keeps the spaces that remain");

  // Someone else makes a space with the same id: its audit log starts empty.
  const bo = await signedIn(app, db, "bo@example.com", ["ana-notes"]);
  const audit = await bo.browser.get(`${BASE}/w/ana-notes/-/audit`);
  const html = await audit.text();
  assert.equal(audit.status, 200, html.slice(0, 500));
  assert.doesNotMatch(html, /laptop|ana@example\.com|confirm_use/);
  const usage = await bo.browser.get(`${BASE}/w/ana-notes/-/usage`);
  const usageHtml = await usage.text();
  assert.equal(usage.status, 200, usageHtml.slice(0, 500));
  assert.match(usageHtml, /Usage of/);
  assert.doesNotMatch(usageHtml, /When is the launch/);
});

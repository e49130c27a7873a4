import assert from "node:assert/strict";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { fieldValue, html, person, seedPages, spaceApp, teamWiki } from "./space_helpers.ts";

async function revisions(db: Db, path: string) {
  return await db<{ revision: number; action: string; author: string | null; source: string }>`
    SELECT r.revision, r.action, a.name AS author, r.source
    FROM page_revisions r LEFT JOIN accounts a ON a.id = r.author_account_id
    WHERE r.path = ${path} ORDER BY r.revision`;
}

async function markdownOf(db: Db, path: string): Promise<string | undefined> {
  const [row] = await db<{ markdown: string }>`SELECT markdown FROM pages WHERE path = ${path}`;
  return row?.markdown;
}

Deno.test("a member's edit saves a new revision with the author and source web", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", ownerAccountId: ana.id });
  await seedPages(deps, "kb", { "Guides/Setup": "# Setup\n\nOld text.\n" });

  const form = await html(await ana.get("/w/kb/-/edit/Guides/Setup"), 200);
  assert.match(form, /<label for="field-markdown">Markdown<\/label>/);
  assert.match(form, /<button type="submit" name="action" value="save">Save<\/button>/);
  assert.match(
    form,
    /<button type="submit" name="action" value="preview" class="secondary">Preview<\/button>/,
  );
  assert.match(form, /<script src="\/assets\/editor.js" defer><\/script>/);
  assert.equal(fieldValue(form, "base_revision"), "1");
  assert.equal(fieldValue(form, "markdown"), "# Setup\n\nOld text.\n");

  const saved = await ana.submit("/w/kb/-/edit/Guides/Setup", {
    base_revision: "1",
    markdown: "# Setup\r\n\r\nNew text with a [[Link]].\r\n",
    action: "save",
  });
  assert.equal(saved.status, 303);
  assert.equal(saved.headers.get("location"), "/w/kb/Guides/Setup");
  assert.equal(await markdownOf(db, "Guides/Setup"), "# Setup\n\nNew text with a [[Link]].\n");
  assert.deepEqual(await revisions(db, "Guides/Setup"), [
    { revision: 1, action: "create", author: null, source: "test" },
    { revision: 2, action: "update", author: "Ana", source: "web" },
  ]);
  const page = await html(await ana.get("/w/kb/Guides/Setup"), 200);
  assert.match(page, /New text with a <a href="\/w\/kb\/-\/new\?path=Link" class="missing"/);
  assert.match(page, /revision 2/);

  // An edit link for a page that does not exist leads to the new-page editor.
  const absent = await ana.get("/w/kb/-/edit/Guides/Nothing");
  assert.equal(absent.status, 303);
  assert.equal(absent.headers.get("location"), "/w/kb/-/new?path=Guides%2FNothing");
});

Deno.test("a save after someone else's keeps both texts, shows the diff, and a second save wins", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  const bo = await person(app, db, "bo@example.com", "Bo");
  await teamWiki(deps, "lab", ana, [{ person: bo, email: "bo@example.com" }]);
  await seedPages(deps, "lab", { "Plan": "# Plan\n\nstep one\nstep two\n" });

  const anaForm = await html(await ana.get("/w/lab/-/edit/Plan"), 200);
  const base = fieldValue(anaForm, "base_revision")!;
  const boSaved = await bo.submit("/w/lab/-/edit/Plan", {
    base_revision: base,
    markdown: "# Plan\n\nstep one\nstep two by Bo\n",
    action: "save",
  });
  assert.equal(boSaved.status, 303);

  const mine = "# Plan\n\nstep one\nstep two\nstep three by Ana\n";
  const refused = await ana.submit("/w/lab/-/edit/Plan", {
    base_revision: base,
    markdown: mine,
    action: "save",
  });
  const page = await html(refused, 409);
  assert.match(
    page,
    /role="alert">Someone saved this page while you were editing it: it is now at revision 2/,
  );
  assert.equal(fieldValue(page, "markdown"), mine, "the user's text stays in the editor");
  assert.equal(fieldValue(page, "base_revision"), "2", "rebased on what is saved now");
  const saved = /<textarea id="field-saved-markdown"[^>]*readonly[^>]*>([\s\S]*?)<\/textarea>/
    .exec(page);
  assert.equal(saved?.[1], "# Plan\n\nstep one\nstep two by Bo\n", "the saved text, read-only");
  assert.match(page, /<del>- step two by Bo\n<\/del>/);
  assert.match(page, /<ins>\+ step two\n<\/ins><ins>\+ step three by Ana\n<\/ins>/);
  assert.equal(await markdownOf(db, "Plan"), "# Plan\n\nstep one\nstep two by Bo\n");

  const again = await ana.submit("/w/lab/-/edit/Plan", {
    base_revision: "2",
    markdown: mine,
    action: "save",
  });
  assert.equal(again.status, 303);
  assert.equal(await markdownOf(db, "Plan"), mine);
  assert.deepEqual((await revisions(db, "Plan")).map((r) => [r.revision, r.author]), [
    [1, null],
    [2, "Bo"],
    [3, "Ana"],
  ]);
});

Deno.test("the new-page editor previews without script, refuses bad paths and creates the page", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", ownerAccountId: ana.id });
  await seedPages(deps, "kb", { "Home": "# Home" });

  const form = await html(await ana.get("/w/kb/-/new?path=Ideas/Later"), 200);
  assert.match(form, /<label for="field-path">Path<\/label>/);
  assert.equal(fieldValue(form, "path"), "Ideas/Later");
  assert.equal(fieldValue(form, "markdown"), "", "not a heading the person types again");
  assert.equal(fieldValue(form, "base_revision"), "0");

  const text = "# Later\n\nBack [[Home]] <b>x</b>";
  const preview = await html(
    await ana.submit("/w/kb/-/new", { path: "Ideas/Later", markdown: text, action: "preview" }),
    200,
  );
  assert.match(preview, /<section id="preview" aria-labelledby="preview-heading"\s*>/);
  assert.match(preview, /<p>Back <a href="\/w\/kb\/Home">Home<\/a> &lt;b&gt;x&lt;\/b&gt;<\/p>/);
  assert.equal(fieldValue(preview, "markdown"), text, "the text is kept");
  assert.equal(fieldValue(preview, "path"), "Ideas/Later");
  assert.equal(await markdownOf(db, "Ideas/Later"), undefined, "a preview saves nothing");

  for (const path of ["-/Later", "-", "a/../b", "[x]"]) {
    const bad = await html(
      await ana.submit("/w/kb/-/new", { path, markdown: text, action: "save" }),
      400,
    );
    assert.match(bad, /<p class="error" id="field-path-error">Page path .* is not valid/, path);
    assert.match(bad, /aria-invalid="true"/);
    assert.equal(fieldValue(bad, "markdown"), text);
  }
  await assert.rejects(
    writePage(deps, { wikiId: "kb", path: "-/x", markdown: "# x" }, { source: "api" }),
    /a first segment "-" is reserved/,
    "REST, MCP and imports write through the same check",
  );
  const blank = await html(await ana.submit("/w/kb/-/new", { path: " ", markdown: text }), 400);
  assert.match(blank, /Enter a path for the page/);
  const badYaml = await html(
    await ana.submit("/w/kb/-/new", { path: "Y", markdown: "---\n: [\n---\n", action: "save" }),
    422,
  );
  assert.match(
    badYaml,
    /id="field-markdown-error">Page &quot;Y&quot;: Front matter is not valid YAML/,
  );

  const created = await ana.submit("/w/kb/-/new", {
    path: "Ideas/Later",
    markdown: text,
    base_revision: "0",
    action: "save",
  });
  assert.equal(created.status, 303);
  assert.equal(created.headers.get("location"), "/w/kb/Ideas/Later");
  assert.equal(await markdownOf(db, "Ideas/Later"), text);
  const exists = await ana.get("/w/kb/-/new?path=ideas/later");
  assert.equal(exists.headers.get("location"), "/w/kb/-/edit/Ideas/Later");

  // Creating a page someone else created meanwhile is a conflict, not an overwrite.
  const twice = await html(
    await ana.submit("/w/kb/-/new", {
      path: "Ideas/Later",
      markdown: "# Other",
      base_revision: "0",
    }),
    409,
  );
  assert.match(twice, /A page &quot;Ideas\/Later&quot; already exists \(revision 1\)/);
  assert.match(twice, /<form method="post" action="\/w\/kb\/-\/edit\/Ideas\/Later"/);
  assert.equal(await markdownOf(db, "Ideas/Later"), text);
});

Deno.test("rename and delete go through a confirmation form; the old path and history still lead somewhere", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", visibility: "public", ownerAccountId: ana.id });
  await seedPages(deps, "kb", { "Old": "# Old", "Home": "# Home\n\nSee [[Old]]." });

  const form = await html(await ana.get("/w/kb/-/rename/Old"), 200);
  assert.match(form, /<label for="field-new_path">New path<\/label>/);
  assert.match(form, /Update the links of the 1 page/);
  const taken = await html(
    await ana.submit("/w/kb/-/rename/Old", { new_path: "home", update_links: "1" }),
    409,
  );
  assert.match(taken, /id="field-new_path-error">Page &quot;home&quot; already exists/);
  const reserved = await html(await ana.submit("/w/kb/-/rename/Old", { new_path: "-/Old" }), 400);
  assert.match(reserved, /a first segment &quot;-&quot; is reserved/);
  const renamed = await ana.submit("/w/kb/-/rename/Old", {
    new_path: "Archive/New",
    update_links: "1",
    base_revision: "1",
  });
  assert.equal(renamed.status, 303);
  assert.equal(renamed.headers.get("location"), "/w/kb/Archive/New");
  assert.equal(await markdownOf(db, "Home"), "# Home\n\nSee [[Archive/New]].");
  const moved = await app.request("/w/kb/Old");
  assert.equal(moved.status, 302, "the old path leads to the page");
  assert.equal(moved.headers.get("location"), "/w/kb/Archive/New");

  const confirm = await html(await ana.get("/w/kb/-/delete/Archive/New"), 200);
  assert.match(confirm, /<h1>Delete Archive\/New\?<\/h1>/);
  assert.match(confirm, /1 page links to it/);
  assert.match(confirm, /<button type="submit" class="danger">Delete page<\/button>/);
  assert.ok(await markdownOf(db, "Archive/New"), "asking deletes nothing");
  const stale = await html(
    await ana.submit("/w/kb/-/delete/Archive/New", { base_revision: "1" }),
    409,
  );
  assert.match(stale, /changed since you opened this form: it is now at revision 2/);
  const deleted = await ana.submit("/w/kb/-/delete/Archive/New", { base_revision: "2" });
  assert.equal(deleted.status, 303);
  assert.equal(deleted.headers.get("location"), "/w/kb");
  assert.equal(await markdownOf(db, "Archive/New"), undefined);

  const gone = await html(await ana.get("/w/kb/Archive/New"), 404);
  assert.match(gone, /any more/);
  assert.match(gone, /It was deleted <time[^>]*>[^<]*<\/time> by Ana\./);
  assert.match(gone, /href="\/w\/kb\/-\/history\/Archive\/New">See its history/);
  const history = await html(await app.request("/w/kb/-/history/Archive/New"), 200);
  assert.match(history, /This page has been deleted/);
  assert.match(history, /deleted/);
  const restore = await html(await ana.get("/w/kb/-/new?path=Archive/New&revision=2"), 200);
  assert.equal(fieldValue(restore, "markdown"), "# Old");
});

Deno.test("readers of a public wiki cannot write it; signed-out writers are sent to sign in", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  const bo = await person(app, db, "bo@example.com", "Bo");
  await createWiki(db, { id: "kb", visibility: "public", ownerAccountId: ana.id });
  await seedPages(deps, "kb", { "Home": "# Home" });

  for (
    const path of [
      "/w/kb/-/edit/Home",
      "/w/kb/-/new",
      "/w/kb/-/import",
      "/w/kb/-/settings",
      "/w/kb/-/delete/Home",
    ]
  ) {
    const page = await html(await bo.get(path), 403);
    assert.match(page, /Only (members|owners and admins) of &quot;kb&quot;/);
    const anonymous = await app.request(path);
    assert.equal(anonymous.status, 303, path);
    assert.match(anonymous.headers.get("location")!, /^\/signin\?next=/);
  }
  assert.equal(
    (await bo.submit("/w/kb/-/edit/Home", { markdown: "x", base_revision: "1" })).status,
    403,
  );
  assert.equal((await bo.submit("/w/kb/-/delete/Home", { base_revision: "1" })).status, 403);
  assert.equal((await bo.submit("/w/kb/-/preview", { markdown: "x" })).status, 403);
  assert.equal(await markdownOf(db, "Home"), "# Home");
});

Deno.test("page forms need the session's CSRF token", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", ownerAccountId: ana.id });
  await seedPages(deps, "kb", { "Home": "# Home" });
  const forged = await ana.post("/w/kb/-/edit/Home", { markdown: "# Forged", base_revision: "1" });
  assert.equal(forged.status, 403);
  const crossSite = await ana.post(
    "/w/kb/-/delete/Home",
    { _csrf: await ana.token("/account"), base_revision: "1" },
    { "sec-fetch-site": "cross-site" },
  );
  assert.equal(crossSite.status, 403);
  assert.equal(await markdownOf(db, "Home"), "# Home");
});

import assert from "node:assert/strict";
import { zipSync } from "fflate";
import type { Db } from "../src/db/db.ts";
import { selectWiki } from "../src/wikis/store.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { fieldValue, html, person, seedPages, spaceApp, teamWiki } from "./space_helpers.ts";

const encode = (text: string) => new TextEncoder().encode(text);

/** The rows of the import report: file, result, page or reason. */
function reportRows(page: string): string[][] {
  const report = page.slice(page.indexOf('id="import-report"'));
  return [...report.matchAll(/<tr class="[a-z]+">([\s\S]*?)<\/tr>/g)].map((m) =>
    [...m[1]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, ""))
  );
}

async function pagePaths(db: Db, wikiId: string): Promise<string[]> {
  const rows = await db<{ path: string }>`
    SELECT path FROM pages WHERE wiki_id = ${wikiId} ORDER BY path`;
  return rows.map((r) => r.path);
}

Deno.test("import reports each file and imports the good ones", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", ownerAccountId: ana.id });
  await seedPages(deps, "kb", { "Kept": "# Kept\n\nsame" });

  const form = await html(await ana.get("/w/kb/-/import"), 200);
  assert.match(
    form,
    /<form method="post" action="\/w\/kb\/-\/import" enctype="multipart\/form-data"/,
  );
  assert.match(form, /<label for="field-files">Files<\/label>/);
  assert.match(form, /<input id="field-files" type="file" name="files" multiple/);
  assert.match(form, /<progress id="import-bar"/);
  assert.match(form, /<script src="\/assets\/import.js" defer><\/script>/);

  const zip = zipSync({
    "notes/Guides/Setup.md": encode("# Setup\n\nSee [[Intro]]."),
    "notes/Guides/Broken.md": encode("---\ntitle: [\n---\nbody"),
  });
  const res = await ana.upload("/w/kb/-/import", [
    new File([encode("# Intro\n\nHello.")], "Intro.md"),
    new File([encode("# Kept\n\nsame")], "Kept.md"),
    new File([new Uint8Array([0xff, 0xfe, 0x00, 0x41])], "Binary.md"),
    new File([encode("just text")], "notes.txt"),
    new File([zip], "docs.zip"),
    new File([encode("not a zip")], "bad.zip"),
  ]);
  const page = await html(res, 200);
  assert.match(page, /2 created, 0 updated, 1 unchanged, 4 failed\./);
  const rows = reportRows(page);
  assert.deepEqual(rows.map(([file, result]) => [file, result]), [
    ["Intro.md", "Created"],
    ["Kept.md", "Unchanged"],
    ["Binary.md", "Failed"],
    ["notes.txt", "Failed"],
    ["docs.zip: notes/Guides/Broken.md", "Failed"],
    ["docs.zip: notes/Guides/Setup.md", "Created"],
    ["bad.zip", "Failed"],
  ]);
  assert.deepEqual(rows.map((r) => r[2]).slice(0, 4), [
    "Intro",
    "Kept",
    "is not UTF-8 text",
    "is not a .md, .markdown or .zip file",
  ]);
  assert.match(rows[4]![2]!, /Front matter is not valid YAML/);
  assert.equal(rows[5]![2], "Guides/Setup");
  assert.match(rows[6]![2]!, /cannot be read as a zip/);
  assert.deepEqual(await pagePaths(db, "kb"), ["Guides/Setup", "Intro", "Kept"]);
  const [revision] = await db<{ source: string; author_account_id: string }>`
    SELECT r.source, r.author_account_id FROM page_revisions r JOIN pages p ON p.id = r.page_id
    WHERE p.path = 'Intro'`;
  assert.deepEqual(revision, { source: "web", author_account_id: ana.id });

  const again = await html(
    await ana.upload("/w/kb/-/import", [new File([encode("# Intro\n\nHello again.")], "Intro.md")]),
    200,
  );
  assert.deepEqual(reportRows(again), [["Intro.md", "Updated", "Intro"]]);

  const none = await html(await ana.upload("/w/kb/-/import", [new File([], "")]), 400);
  assert.match(none, /id="field-files-error">Choose one or more .md files/);
  assert.match(none, /aria-invalid="true"/);
});

Deno.test("settings change the title and visibility; members cannot change them", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  const bo = await person(app, db, "bo@example.com", "Bo");
  await teamWiki(deps, "lab", ana, [{ person: bo, email: "bo@example.com" }]);
  await seedPages(deps, "lab", { "Home": "# Home" });
  // Signed out, a private space answers as an unknown id would (its existence is not told).
  assert.equal((await app.request("/w/lab/Home")).status, 404, "private: not found signed out");

  const form = await html(await ana.get("/w/lab/-/settings"), 200);
  assert.match(form, /<label for="field-title">Title<\/label>/);
  assert.match(form, /<legend>Visibility<\/legend>/);
  assert.match(form, /<input type="radio" name="visibility" value="private" checked/);
  assert.match(form, /<label for="field-instructions">Instructions for assistants<\/label>/);
  assert.match(form, /href="\/teams\/lab-team">lab-team<\/a>/);

  const invalid = await html(
    await ana.submit("/w/lab/-/settings", { title: " ", description: "", visibility: "open" }),
    400,
  );
  assert.match(invalid, /id="field-title-error">Enter a title/);
  assert.match(invalid, /id="field-visibility-error">Choose public or private/);

  const saved = await ana.submit("/w/lab/-/settings", {
    title: "Lab notes",
    description: "What the lab learned",
    visibility: "public",
    instructions: "Cite page paths.\r\n",
  });
  assert.equal(saved.status, 303);
  assert.equal(saved.headers.get("location"), "/w/lab/-/settings?saved=1");
  assert.match(await html(await ana.get("/w/lab/-/settings?saved=1"), 200), /Settings saved/);
  const wiki = await selectWiki(db, "lab");
  assert.deepEqual(
    [wiki!.title, wiki!.description, wiki!.visibility, wiki!.instructions],
    ["Lab notes", "What the lab learned", "public", "Cite page paths."],
  );
  assert.equal((await app.request("/w/lab/Home")).status, 200, "public now: anyone reads it");

  assert.equal((await bo.get("/w/lab/-/settings")).status, 403);
  const byMember = await bo.submit("/w/lab/-/settings", {
    title: "Mine",
    description: "",
    visibility: "private",
  });
  assert.equal(byMember.status, 403);
  assert.equal((await selectWiki(db, "lab"))!.visibility, "public");
});

Deno.test("deleting a wiki takes its owner typing the wiki's id", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  const bo = await person(app, db, "bo@example.com", "Bo");
  await teamWiki(deps, "lab", ana, [{ person: bo, email: "bo@example.com" }]);
  await seedPages(deps, "lab", { "Home": "# Home" });

  const form = await html(await ana.get("/w/lab/-/settings"), 200);
  assert.match(form, /<label for="field-confirm">Type the wiki id, lab, to confirm<\/label>/);
  const wrong = await html(await ana.submit("/w/lab/-/settings/delete", { confirm: "la" }), 400);
  assert.match(
    wrong,
    /id="field-confirm-error">Type the wiki id &quot;lab&quot; exactly to confirm/,
  );
  assert.equal(fieldValue(wrong, "confirm"), null, "the field starts empty again");
  assert.ok(await selectWiki(db, "lab"));
  assert.equal((await bo.submit("/w/lab/-/settings/delete", { confirm: "lab" })).status, 403);
  assert.ok(await selectWiki(db, "lab"));

  const deleted = await ana.submit("/w/lab/-/settings/delete", { confirm: "lab" });
  assert.equal(deleted.status, 303);
  assert.equal(deleted.headers.get("location"), "/account");
  assert.equal(await selectWiki(db, "lab"), null);
  assert.deepEqual(await pagePaths(db, "lab"), []);
  assert.equal((await ana.get("/w/lab")).status, 404);
});

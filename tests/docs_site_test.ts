import assert from "node:assert/strict";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { html, person, seedPages, spaceApp } from "./space_helpers.ts";
import { browser } from "./browser.ts";

async function wiki() {
  const db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, {
    id: "kb",
    title: "Knowledge",
    visibility: "public",
    ownerAccountId: ana.id,
  });
  await seedPages(deps, "kb", {
    "Home": "# Home\n\nStart with [[Guides/Setup]].",
    "Guides/README": "# Guides\n\nThe guides.",
    "Guides/Setup": "# Setup\n\nHow to set up.",
    "Guides/Tuning": "# Tuning\n\nShort.",
    "API": "# API\n\nEndpoints.",
  });
  return { db, app, deps, ana };
}

/** The sidebar's links, in order, as `title` strings. */
function sidebarTitles(page: string): string[] {
  const nav = /<nav aria-label="Pages" class="sidebar"[^>]*>([\s\S]*?)<\/nav>/.exec(page)![1]!;
  const tree = /<ul class="tree">[\s\S]*<\/ul>/.exec(nav)![0];
  return [...tree.matchAll(/<a href="[^"]+"[^>]*>([^<]+)<\/a>/g)].map((m) => m[1]!);
}

Deno.test("an owner reorders pages with up and down buttons; readers' sidebar, next link and llms.txt follow", async () => {
  const { db, app, ana } = await wiki();
  await using _ = db;
  const before = await html(await app.request("/w/kb/Home"), 200);
  assert.deepEqual(sidebarTitles(before), ["Home", "API", "Guides", "Setup", "Tuning"]);

  const editor = await html(await ana.get("/w/kb/-/order"), 200);
  assert.match(editor, /aria-label="Move Guides up"/);
  // Guides (third at the top level) up, above API; then Tuning above Setup.
  assert.equal((await ana.submit("/w/kb/-/order", { at: "2", move: "up" })).status, 303);
  assert.equal((await ana.submit("/w/kb/-/order", { at: "1.1", move: "up" })).status, 303);
  const after = await html(await app.request("/w/kb/Home"), 200);
  assert.deepEqual(sidebarTitles(after), ["Home", "Guides", "Tuning", "Setup", "API"]);
  assert.match(after, /href="\/w\/kb\/Guides\/README" rel="next"/);
  const llms = await (await app.request("/w/kb/llms.txt")).text();
  assert.ok(llms.indexOf("[Tuning]") < llms.indexOf("[Setup]"), llms);
  assert.ok(llms.indexOf("[Setup]") < llms.indexOf("[API]"), llms);

  // A reader may not reorder.
  const bo = await person(app, db, "bo@example.com", "Bo");
  assert.equal((await bo.submit("/w/kb/-/order", { at: "0", move: "down" })).status, 403);
});

Deno.test("an anonymous reader of a public wiki sees a docs page; the owner keeps the tools", async () => {
  const { db, app, ana } = await wiki();
  await using _ = db;
  const reader = await html(await app.request("/w/kb/Guides/Setup"), 200);
  assert.doesNotMatch(reader, />History</);
  assert.doesNotMatch(reader, />(Recent changes|Files|Export)</);
  assert.match(reader, /<a href="#main" class="skip-link">Skip to content<\/a>/);
  assert.doesNotMatch(reader, /revision \d/);
  assert.doesNotMatch(reader, /No other page links here yet/);
  assert.doesNotMatch(reader, /Ctrl<\/kbd>\+<kbd>S/);
  assert.match(reader, /<a href="\/w\/kb\/Guides\/README">Guides<\/a>/, "breadcrumb to the folder");
  const owner = await html(await ana.get("/w/kb/Guides/Setup"), 200);
  assert.match(owner, />History</);
  assert.match(owner, />Recent changes</);
  assert.match(owner, />Export</);
  assert.match(owner, /revision 1/);
  assert.match(
    owner,
    /<h2 id="wiki-backlinks">Backlinks<\/h2>/,
    owner.slice(owner.indexOf("<article")),
  );
  assert.match(owner, /Ctrl<\/kbd>\+<kbd>S/);
});

Deno.test("an anonymous reader answers 'Was this page helpful?' with a comment; the owners' usage page shows it", async () => {
  const { db, app, ana } = await wiki();
  await using _ = db;
  const reader = browser(app, "192.0.2.9");
  const page = await html(await reader.get("/w/kb/Guides/Setup"), 200);
  assert.match(page, /<legend>Was this page helpful\?<\/legend>/);
  const thanks = await reader.post("/w/kb/-/helpful", {
    _csrf: await reader.token("/w/kb/Guides/Setup"),
    path: "Guides/Setup",
    helpful: "no",
    comment: "Which port does it listen on?",
  });
  assert.match(await html(thanks, 200), /Thank you/);
  const usage = await html(await ana.get("/w/kb/-/usage"), 200);
  const section = /<section aria-labelledby="ratings-heading">([\s\S]*?)<\/section>/.exec(
    usage,
  )![1]!;
  assert.match(section, /Guides\/Setup<\/a><\/td><td>0<\/td><td>1<\/td>/);
  assert.match(section, /Which port does it listen on\?/);
  assert.equal((await reader.get("/w/kb/-/usage")).status === 200, false, "readers see no usage");
});

Deno.test("owners set the published site's title, logo, accent colour and header links; readers see them", async () => {
  const { db, app, ana } = await wiki();
  await using _ = db;
  const saved = await ana.submit("/w/kb/-/site", {
    title: "Acme Docs",
    logo: "/w/kb/-/files/logo.png",
    accent: "#aa3300",
    links: "Status https://status.example.com\nBlog https://blog.example.com",
  });
  assert.equal(saved.status, 303);
  const reader = await html(await app.request("/w/kb/Guides/Setup"), 200);
  const head = /<div class="site-head">([\s\S]*?)<\/div>/.exec(reader)![1]!;
  assert.match(head, /<img src="\/w\/kb\/-\/files\/logo.png"/);
  assert.match(head, /<span>Acme Docs<\/span>/);
  assert.match(head, /color:#aa3300/);
  assert.match(head, /<a href="https:\/\/status.example.com">Status<\/a>/);
  assert.match(
    reader,
    /<nav aria-label="Breadcrumb" class="crumbs"><a href="\/w\/kb">Acme Docs<\/a>/,
  );
  const owner = await html(await ana.get("/w/kb/Guides/Setup"), 200);
  assert.doesNotMatch(owner, /class="site-head"/, "members keep the wiki's own bar");
  const refused = await ana.submit("/w/kb/-/site", {
    title: "",
    logo: "https://evil.example/x.png",
    accent: "",
    links: "",
  });
  assert.equal(refused.status, 400);
});

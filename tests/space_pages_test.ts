import assert from "node:assert/strict";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { html, person, seedPages, spaceApp } from "./space_helpers.ts";

Deno.test("GET /w/<id>/<path> renders the page with working wikilinks, missing pages and backlinks", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, {
    id: "kb",
    title: "Knowledge",
    visibility: "public",
    ownerAccountId: ana.id,
  });
  await seedPages(deps, "kb", {
    "Home": "# Home\n\nSee [[Guides/Setup]], [[Setup|the setup]] and [[Nowhere]].\n\n" +
      "## Getting started\n\nRead [the guide](Guides/Setup.md) and [later](Later.md).\n",
    "Guides/Setup": "# Setup\n\nBack to [[Home#Getting started]].\n",
  });

  const res = await app.request("/w/kb/Home");
  const page = await html(res, 200);
  assert.match(res.headers.get("content-security-policy") ?? "", /script-src 'self'/);
  assert.match(page, /<h1>Home<\/h1>/);
  assert.equal(page.match(/<h1/g)?.length, 1, "the page's own title heading is not repeated");
  assert.match(page, /<a href="\/w\/kb\/Guides\/Setup">Setup<\/a>/, "the page's title");
  assert.match(
    page,
    /<a href="\/w\/kb\/Guides\/Setup">the setup<\/a>/,
    "found by its last segment",
  );
  assert.match(page, /<a href="\/w\/kb\/Guides\/Setup">the guide<\/a>/, "a relative .md link");
  assert.match(page, /<h2 id="getting-started">Getting started<\/h2>/);
  // A reader is shown that the page is missing; only members are offered the editor.
  assert.match(page, /<a href="\/w\/kb\/Nowhere" class="missing" title="[^"]*does not exist yet"/);
  assert.match(page, /<a href="\/w\/kb\/Later" class="missing"/);
  assert.doesNotMatch(page, /-\/new/);

  const asMember = await html(await ana.get("/w/kb/Home"), 200);
  assert.match(asMember, /<a href="\/w\/kb\/-\/new\?path=Nowhere" class="missing"/);
  assert.match(asMember, /href="\/w\/kb\/-\/edit\/Home">Edit<\/a>/);

  const setup = await html(await app.request("/w/kb/Guides/Setup"), 200);
  assert.match(setup, /<a href="\/w\/kb\/Home#getting-started">Home › Getting started<\/a>/);
  const backlinks = /<h2 id="wiki-backlinks">Backlinks<\/h2>([\s\S]*?)<\/section>/.exec(setup);
  assert.ok(backlinks, "a Backlinks section");
  assert.match(backlinks[1]!, /<a href="\/w\/kb\/Home">Home<\/a>/);

  const other = await app.request("/w/kb/guides/SETUP");
  assert.equal(other.status, 302, "another spelling of the path");
  assert.equal(other.headers.get("location"), "/w/kb/Guides/Setup");

  // The plain-text views of llmsRoutes still answer first.
  const markdown = await app.request("/w/kb/Home.md");
  assert.equal(markdown.status, 200);
  assert.match(markdown.headers.get("content-type") ?? "", /^text\/markdown/);
  assert.equal((await app.request("/w/kb/llms.txt")).status, 200);
});

Deno.test("GET /w/<id>/-/pages lists the pages as a tree with a search form; unknown pages are 404 pages offering to write them", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, {
    id: "kb",
    title: "Knowledge",
    description: "What we know",
    visibility: "public",
    ownerAccountId: ana.id,
  });
  await seedPages(deps, "kb", {
    "Home": "# Home\n\n[[Wanted thing]]",
    "Guides": "# All guides",
    "Guides/Setup": "# Setup",
    "Guides/Deep/Tuning": "# Tuning",
  });
  // The root shows the Home page; the index of every page is one click away.
  const root = await html(await app.request("/w/kb"), 200);
  assert.match(root, /<h1>Home<\/h1>/);
  assert.match(root, /<a href="\/w\/kb\/-\/pages">Index of all pages<\/a>/);
  const home = await html(await app.request("/w/kb/-/pages"), 200);
  assert.match(home, /<h1>Knowledge<\/h1>/);
  assert.match(home, /What we know/);
  assert.match(home, /4 pages/);
  assert.match(home, /<form role="search" method="get" action="\/w\/kb\/-\/search"/);
  assert.match(home, /<label for="wiki-search" class="sr-only">Search<\/label>/);
  assert.match(
    home,
    /<summary>Guides\/<\/summary><p class="folder-page"><a href="\/w\/kb\/Guides">All guides<\/a>/,
  );
  assert.match(
    home,
    /<summary>Deep\/<\/summary>[\s\S]*<a href="\/w\/kb\/Guides\/Deep\/Tuning">Tuning<\/a>/,
  );
  assert.doesNotMatch(home, /New page|Wanted pages/, "no tools for readers");
  const mine = await html(await ana.get("/w/kb/-/pages"), 200);
  assert.match(mine, /href="\/w\/kb\/-\/new">New page<\/a>/);
  assert.match(mine, /href="\/w\/kb\/-\/import">Import<\/a>/);
  assert.match(mine, /href="\/w\/kb\/-\/settings">Settings<\/a>/);
  assert.match(
    mine,
    /<a class="missing" href="\/w\/kb\/-\/new\?path=Wanted\+thing">Wanted thing<\/a>/,
  );
  assert.equal((await app.request("/w/kb/")).headers.get("location"), "/w/kb");

  const missing = await html(await ana.get("/w/kb/Guides/Nope"), 404);
  assert.match(missing, /<h1>Page not found<\/h1>/);
  assert.match(missing, /href="\/w\/kb\/-\/new\?path=Guides%2FNope">Create page/);
  const anonymous = await html(await app.request("/w/kb/Setu"), 404);
  assert.match(anonymous, /Did you mean[\s\S]*href="\/w\/kb\/Guides\/Setup"/);
  assert.match(anonymous, /Sign in/);
  assert.equal((await app.request("/w/nowiki")).status, 404);
  assert.equal((await app.request("/w/kb/-/nothing-here")).status, 404);
});

Deno.test("raw HTML and javascript: links in a page render as escaped text", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", visibility: "public", ownerAccountId: ana.id });
  await seedPages(deps, "kb", {
    "Evil": "# <i>Bold</i> title\n\n<script>alert(1)</script>\n\n" +
      "[click](javascript:alert(2)) [data](data:text/html;base64,PHNjcmlwdD4=) " +
      '<img src=x onerror="alert(3)"> [[Home|<b>label</b>]] ' +
      '[q](https://example.com/"onmouseover="alert(4))\n',
  });
  const page = await html(await app.request("/w/kb/Evil"), 200);
  const body = page.slice(page.indexOf("<main"));
  assert.doesNotMatch(body, /<script>alert|<img src=x|<b>label|<i>Bold/);
  assert.doesNotMatch(body, /href="(javascript|data):/i);
  assert.doesNotMatch(body, /"onmouseover=/);
  assert.match(body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(body, /\[click\]\(javascript:alert\(2\)\)/, "left as text");
  assert.match(body, /&lt;img src=x onerror=/);
  assert.match(page, /<title>&lt;i&gt;Bold&lt;\/i&gt; title · Wiki<\/title>/);
  // The scripts a page may run come from this site only, never inline.
  assert.doesNotMatch(page, /<script(?![^>]*src="\/assets\/)/);

  const preview = await ana.submit("/w/kb/-/preview", {
    markdown: "<script>x()</script> [[Evil]]",
  });
  const fragment = await html(preview, 200);
  // The link shows the page's title, escaped like any text.
  assert.match(
    fragment,
    /^<p>&lt;script&gt;x\(\)&lt;\/script&gt; <a href="\/w\/kb\/Evil">&lt;i&gt;Bold&lt;\/i&gt; title<\/a><\/p>/,
  );
});

Deno.test("a private wiki is hidden from strangers and asks signed-out visitors to sign in", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  const bo = await person(app, db, "bo@example.com", "Bo");
  await createWiki(db, { id: "secret", ownerAccountId: ana.id });
  await seedPages(deps, "secret", { "Plans": "# Plans\n\nThe launch date." });

  assert.equal((await ana.get("/w/secret/Plans")).status, 200);
  assert.equal((await ana.get("/w/secret")).status, 200);
  for (
    const path of [
      "/w/secret",
      "/w/secret/Plans",
      "/w/secret/-/history/Plans",
      "/w/secret/-/search?q=launch",
      "/w/secret/-/edit/Plans",
    ]
  ) {
    const page = await html(await bo.get(path), 404);
    assert.doesNotMatch(page, /launch/i, path);
    // Signed out, a private space answers as an unknown id does; the page offers sign-in.
    const anonymous = await html(await app.request(path), 404);
    assert.doesNotMatch(anonymous, /launch date/i, path);
    assert.match(anonymous, new RegExp(`/signin\\?next=${encodeURIComponent(path)}`), path);
    const unknown = path.replace("/w/secret", "/w/nosuch");
    assert.equal((await app.request(unknown)).status, 404, unknown);
    assert.equal((await bo.get(unknown)).status, 404, unknown);
  }
  assert.equal((await app.request("/w/secret/Plans.md")).status, 404);
  const write = await bo.submit("/w/secret/-/edit/Plans", {
    markdown: "# Mine",
    base_revision: "1",
  });
  assert.equal(write.status, 404);
  const [page] = await db<{ markdown: string }>`SELECT markdown FROM pages WHERE path = 'Plans'`;
  assert.equal(page!.markdown, "# Plans\n\nThe launch date.");
});

Deno.test("a wikilink shows the title of the page it reaches; a label, a missing page and code keep what was written", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", visibility: "public", ownerAccountId: ana.id });
  await seedPages(deps, "kb", {
    "Ops/Deploy": "# Deploying to production\n\n## Rollbacks\n\nRestore the last release.\n",
    "Ops/Runbook": "No heading here.\n",
    "Home": "# Home\n\n- [[ops/deploy]]\n- [[Deploy]]\n- [[Ops/Deploy|the runbook]]\n" +
      "- [[Ops/Deploy#Rollbacks]]\n- [[Ops/Runbook]]\n- [[Nowhere/Else]]\n- `[[Ops/Deploy]]`\n",
  });
  const items = (text: string) =>
    [...text.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) =>
      m[1]!.replace(/<span class="sr-only">.*?<\/span>/, "")
    );
  const expected = [
    '<a href="/w/kb/Ops/Deploy">Deploying to production</a>',
    '<a href="/w/kb/Ops/Deploy">Deploying to production</a>',
    '<a href="/w/kb/Ops/Deploy">the runbook</a>',
    '<a href="/w/kb/Ops/Deploy#rollbacks">Deploying to production › Rollbacks</a>',
    '<a href="/w/kb/Ops/Runbook">Runbook</a>',
    '<a href="/w/kb/Nowhere/Else" class="missing" title="Page &quot;Nowhere/Else&quot; does not exist yet">Nowhere/Else</a>',
    "<code>[[Ops/Deploy]]</code>",
  ];
  const article = /<article[\s\S]*?<\/article>/.exec(
    await html(await app.request("/w/kb/Home"), 200),
  );
  assert.deepEqual(items(article![0]), expected);

  // The editor's preview renders links the same way.
  const csrf = await ana.token("/w/kb/-/new");
  const preview = await ana.post("/w/kb/-/preview", {
    _csrf: csrf,
    path: "Draft",
    markdown: "- [[ops/deploy]]\n- [[Ops/Deploy|the runbook]]\n",
  });
  assert.deepEqual(items(await html(preview, 200)), [
    '<a href="/w/kb/Ops/Deploy">Deploying to production</a>',
    '<a href="/w/kb/Ops/Deploy">the runbook</a>',
  ]);
});

Deno.test("GET /w/<id>/-/search finds pages with the wiki's hybrid search", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", visibility: "public", ownerAccountId: ana.id });
  await seedPages(deps, "kb", {
    "Ops/Deploy":
      "# Deploying\n\n## Rollbacks\n\nA rollback restores the previous release of the service.",
    "Cooking": "# Cooking\n\nPasta needs salted water.",
  });
  const found = await html(await app.request("/w/kb/-/search?q=rollback%20release"), 200);
  assert.match(found, /<input id="wiki-search" type="search" name="q" value="rollback release"/);
  assert.match(found, /<a href="\/w\/kb\/Ops\/Deploy#rollbacks">Deploying<\/a>/);
  assert.match(found, /<code>Ops\/Deploy<\/code> › Deploying &gt; Rollbacks/);
  assert.match(found, /<mark>rollback<\/mark>/i);
  assert.ok(found.indexOf("Ops/Deploy") < found.indexOf("Cooking"), "the best match first");
  const empty = await html(await app.request("/w/kb/-/search"), 200);
  assert.doesNotMatch(empty, /Results|No pages found/);
  const long = await html(await app.request(`/w/kb/-/search?q=${"a".repeat(1001)}`), 400);
  assert.match(long, /role="alert">The search query is over 1000 characters/);
});

Deno.test("history lists revisions with author, source and time; a diff marks lines with ins and del", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "kb", visibility: "public", ownerAccountId: ana.id });
  await seedPages(deps, "kb", { "Notes": "# Notes\n\nfirst line\nsecond line\n" });
  const saved = await ana.submit("/w/kb/-/edit/Notes", {
    base_revision: "1",
    markdown: "# Notes\r\n\r\nfirst line\r\nchanged line\r\n",
    action: "save",
  });
  assert.equal(saved.status, 303);

  const history = await html(await app.request("/w/kb/-/history/Notes"), 200);
  assert.match(history, /<h1>History of Notes<\/h1>/);
  const rows = [...history.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) =>
    m[1]!.replace(/<[^>]+>/g, " ")
  );
  assert.equal(rows.length, 3, "a header and two revisions");
  assert.match(rows[1]!, /2\s+edited\s+Ana\s+web\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  assert.match(rows[2]!, /1\s+created\s+—\s+test/);
  assert.match(history, /<label for="field-from">From revision<\/label>/);

  const diff = await html(await app.request("/w/kb/-/diff/Notes?from=1&to=2"), 200);
  assert.match(diff, /1 line added, 1 line removed/);
  assert.match(diff, /<del>- second line\n<\/del>/);
  assert.match(diff, /<ins>\+ changed line\n<\/ins>/);
  assert.match(diff, /<span> {2}first line\n<\/span>/);
  assert.equal((await app.request("/w/kb/-/diff/Notes?from=1&to=9")).status, 404);
  assert.equal((await app.request("/w/kb/-/diff/Notes?from=x")).status, 400);

  const old = await html(await app.request("/w/kb/-/history/Notes?revision=1"), 200);
  assert.match(old, /Revision 1 of 2/);
  assert.match(old, /second line/);
  const changes = await html(await app.request("/w/kb/-/history"), 200);
  assert.match(
    changes,
    /<a href="\/w\/kb\/Notes">Notes<\/a> <a href="\/w\/kb\/-\/diff\/Notes\?from=1&amp;to=2">edited<\/a> by Ana through web/,
  );
});

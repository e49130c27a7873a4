import assert from "node:assert/strict";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { html, person, seedPages, spaceApp } from "./space_helpers.ts";

const LONG = "# Setup\n\nHow to set up.\n\n## Install\n\nRun it.\n\n## Configure\n\nEdit it.\n\n" +
  "### Ports\n\nOpen 8000.\n\n## Verify\n\nCheck it.\n";

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
    "Guides": "# All guides\n\nThe guides.",
    "Guides/Setup": LONG,
    "Guides/Tuning": "# Tuning\n\nShort.",
    "Reference/Api": "# API\n\nEndpoints.",
  });
  return { db, app, ana };
}

Deno.test("every page of a wiki has a sidebar tree with the current page marked and its folder open", async () => {
  const { db, app } = await wiki();
  await using _ = db;
  const page = await html(await app.request("/w/kb/Guides/Tuning"), 200);
  const sidebar = /<nav aria-label="Pages" class="sidebar" id="pages">([\s\S]*?)<\/nav>/.exec(page);
  assert.ok(sidebar, "a sidebar");
  assert.match(sidebar[1]!, /<a href="\/w\/kb\/Guides\/Tuning" aria-current="page">Tuning<\/a>/);
  assert.equal(sidebar[1]!.match(/aria-current/g)?.length, 1, "one current page");
  assert.match(sidebar[1]!, /<a href="\/w\/kb\/Reference\/Api"\s*>API<\/a>/);
  assert.match(sidebar[1]!, /<summary><a href="\/w\/kb\/Guides"\s*>All guides<\/a><\/summary>/);
  assert.match(sidebar[1]!, /<a href="\/w\/kb\/-\/pages">All pages<\/a>/);
  // Tools pages of the wiki carry it too.
  for (const path of ["/w/kb/-/history", "/w/kb/-/search?q=set", "/w/kb/-/pages"]) {
    assert.match(await html(await app.request(path), 200), /class="sidebar"/, path);
  }
});

Deno.test("a wiki with many pages opens only the current page's folders in the sidebar", async () => {
  const db = await freshDb();
  await using _ = db;
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "big", visibility: "public", ownerAccountId: ana.id });
  const pages: Record<string, string> = {};
  for (let i = 0; i < 70; i++) pages[`F${i % 3}/P${i}`] = `# Page ${i}`;
  await seedPages(deps, "big", pages);
  const page = await html(await app.request("/w/big/F1/P1"), 200);
  const sidebar = /<nav aria-label="Pages"[\s\S]*?<\/nav>/.exec(page)![0];
  assert.match(sidebar, /<details open><summary>F1<\/summary>/);
  assert.match(sidebar, /<details\s*><summary>F0<\/summary>/);
  assert.match(sidebar, /<details\s*><summary>F2<\/summary>/);
});

Deno.test("the wiki root shows its Home page; breadcrumb folders are links; long pages get a table of contents and previous/next", async () => {
  const { db, app } = await wiki();
  await using _ = db;
  const root = await html(await app.request("/w/kb"), 200);
  assert.match(root, /<h1>Home<\/h1>/);
  assert.match(root, /Start with/);

  const setup = await html(await app.request("/w/kb/Guides/Setup"), 200);
  const crumbs = /<nav aria-label="Breadcrumb" class="crumbs">([\s\S]*?)<\/nav>/.exec(setup)![1]!;
  assert.match(crumbs, /<a href="\/w\/kb">Knowledge<\/a>/);
  // The folder's own page, by the title the folder has in the navigation (its page's).
  assert.match(crumbs, /<a href="\/w\/kb\/Guides">All guides<\/a>/, "the folder's own page");
  const toc = /<nav aria-label="On this page" class="toc">([\s\S]*?)<\/nav>/.exec(setup)![1]!;
  assert.deepEqual([...toc.matchAll(/<a href="#([^"]+)">/g)].map((m) => m[1]), [
    "install",
    "configure",
    "ports",
    "verify",
  ]);
  assert.match(toc, /<li class="sub"><a href="#ports">Ports<\/a>/);
  const prevNext = /<nav aria-label="Previous and next" class="prev-next">([\s\S]*?)<\/nav>/
    .exec(setup)![1]!;
  assert.match(
    prevNext,
    /href="\/w\/kb\/Guides" rel="prev"><span class="hint">Previous<\/span> All guides/,
  );
  assert.match(prevNext, /href="\/w\/kb\/Guides\/Tuning" rel="next"/);

  // A short page has no table of contents; a folder without a page links to the index.
  const api = await html(await app.request("/w/kb/Reference/Api"), 200);
  assert.doesNotMatch(api, /On this page/);
  assert.match(api, /<a href="\/w\/kb\/-\/pages#Reference">Reference<\/a>/);
});

Deno.test("GET /w/<id>/-/suggest gives page titles, then sections, as you type", async () => {
  const { db, app } = await wiki();
  await using _ = db;
  const res = await app.request("/w/kb/-/suggest?q=tun");
  assert.equal(res.status, 200);
  const { results } = await res.json() as { results: { title: string; href: string }[] };
  assert.deepEqual(results[0], {
    title: "Tuning",
    section: null,
    href: "/w/kb/Guides/Tuning",
    path: "Guides/Tuning",
  });
  const ports = await (await app.request("/w/kb/-/suggest?q=ports")).json() as {
    results: { title: string; section: string | null; href: string }[];
  };
  assert.ok(
    ports.results.some((r) => r.href === "/w/kb/Guides/Setup#ports"),
    JSON.stringify(ports.results),
  );
  const short = await (await app.request("/w/kb/-/suggest?q=t")).json();
  assert.deepEqual(short, { results: [] });
});

import assert from "node:assert/strict";
import { freshDb } from "./helpers.ts";
import { html, spaceApp } from "./space_helpers.ts";

Deno.test("GET /shortcuts lists the site's keys as a page, with the usual page headers", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  const res = await app.request("/shortcuts");
  const page = await html(res, 200);
  assert.match(page, /<h1>Keyboard shortcuts<\/h1>/);
  assert.match(page, /<kbd>\/<\/kbd><\/td><th scope="row">Search/);
  assert.match(page, /<kbd>\?<\/kbd>/);
  // The editor's keys, the same list the editor's own Shortcuts box shows.
  for (const what of ["Save the page", "Bold", "Italic", "Link", "Code", "Link a page"]) {
    assert.match(page, new RegExp(`<th scope="row">${what}[^<]*</th><td>The editor</td>`), what);
  }
  assert.match(page, /<kbd>Ctrl\/⌘<\/kbd>\+<kbd>B<\/kbd>/);
  assert.match(res.headers.get("content-security-policy") ?? "", /script-src 'self'/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  // Hono's JSX prints a `key` prop as an attribute: the rows carry none.
  assert.doesNotMatch(page, / key="/);
});

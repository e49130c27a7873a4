import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";

const V1 = "# Setup\nCopy the binary by hand.\n";
const V2 = "# Setup\nRun the installer.\n\n## Configure\nSet BASE_URL.\n";
const V3 = "# Setup\nRun the installer with deno.\n\n## Configure\nSet BASE_URL.\n";

/** A public wiki and a private space, each with a page at three revisions. */
async function world(db: Db) {
  const deps = testDeps(db);
  const ana = await createAccount(db, { email: "ana@example.com" });
  await createWiki(db, { id: "docs", visibility: "public" });
  await createWiki(db, { id: "notes", visibility: "private", ownerAccountId: ana.id });
  for (const wikiId of ["docs", "notes"]) {
    for (const markdown of [V1, V2, V3]) {
      await writePage(deps, { wikiId, path: "Guides/Setup", markdown }, { source: "test" });
    }
  }
  const token =
    (await createToken(db, { accountId: ana.id, kind: "account", name: "laptop" })).token;
  return { token };
}

const PAGE = "/api/v1/public/wikis/docs/pages/Guides%2FSetup";

Deno.test("GET …/pages/{path}/revisions lists a page's revisions newest first, paged", async () => {
  await using db = await freshDb();
  const { token } = await world(db);
  const { app } = testApp(db);
  const all = await app.request(`${PAGE}/revisions`);
  assert.equal(all.status, 200);
  const body = await all.json();
  assert.equal(body.page, "Guides/Setup");
  assert.equal(body.current_revision, 3);
  assert.deepEqual(
    body.revisions.map((r: { revision: number; action: string }) => [r.revision, r.action]),
    [[3, "update"], [2, "update"], [1, "create"]],
  );
  assert.equal(body.next_before, null);
  const first = await (await app.request(`${PAGE}/revisions?limit=2`)).json();
  assert.deepEqual(first.revisions.map((r: { revision: number }) => r.revision), [3, 2]);
  assert.equal(first.next_before, 2);
  const rest = await (await app.request(`${PAGE}/revisions?limit=2&before=2`)).json();
  assert.deepEqual(rest.revisions.map((r: { revision: number }) => r.revision), [1]);
  assert.equal(rest.next_before, null);
  // The same route serves private spaces, behind their token.
  const space = "/api/v1/spaces/notes/pages/Guides%2FSetup/revisions";
  assert.equal((await app.request(space)).status, 401);
  const mine = await app.request(space, { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(mine.status, 200);
  assert.equal((await mine.json()).revisions.length, 3);
  assert.equal((await app.request(`/api/v1/public/wikis/docs/pages/Nope/revisions`)).status, 404);
});

Deno.test("GET …/pages/{path}?revision= reads an earlier revision, as JSON or markdown", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const res = await app.request(`${PAGE}?revision=1`);
  assert.equal(res.status, 200);
  const page = await res.json();
  assert.equal(page.markdown, V1);
  assert.equal(page.revision, 1);
  assert.equal(page.current_revision, 3);
  assert.match(res.headers.get("etag") ?? "", /^"\d+-1"$/);
  const raw = await app.request(`${PAGE}?revision=2`, { headers: { Accept: "text/markdown" } });
  assert.equal(await raw.text(), V2);
  const current = await (await app.request(PAGE)).json();
  assert.equal(current.revision, 3);
  assert.equal(current.markdown, V3);
  const missing = await app.request(`${PAGE}?revision=7`);
  assert.equal(missing.status, 404);
  assert.match(missing.headers.get("content-type") ?? "", /problem\+json/);
  assert.match((await missing.json()).detail, /has no revision 7/);
  assert.equal((await app.request(`${PAGE}?revision=0`)).status, 400);
});

Deno.test("GET …/pages/{path}?if_changed_since= is 304 while the page is at that revision", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const same = await app.request(`${PAGE}?if_changed_since=3`);
  assert.equal(same.status, 304);
  assert.equal(await same.text(), "");
  assert.match(same.headers.get("etag") ?? "", /-3"$/);
  const moved = await app.request(`${PAGE}?if_changed_since=2`);
  assert.equal(moved.status, 200);
  assert.equal((await moved.json()).markdown, V3);
});

Deno.test("GET …/pages/{path} starts at a section given as Page#Section and names it", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const page = await (await app.request(`${PAGE}%23configure`)).json();
  assert.match(page.markdown, /^## Configure\n/);
  assert.equal(page.section, "Setup > Configure");
});

Deno.test("the API document describes revisions, ?revision= and if_changed_since", async () => {
  await using db = await freshDb();
  const { app } = testApp(db);
  const doc = await (await app.request("/api/v1/openapi.json")).json();
  assert.ok(doc.paths["/public/wikis/{id}/pages/{path}/revisions"]?.get);
  assert.ok(doc.paths["/spaces/{id}/pages/{path}/revisions"]?.get);
  const read = doc.paths["/public/wikis/{id}/pages/{path}"].get;
  const names = read.parameters.map((p: { name: string }) => p.name);
  assert.ok(names.includes("revision") && names.includes("if_changed_since"));
  const list = doc.paths["/public/wikis/{id}/pages"].get;
  assert.ok(list.parameters.some((p: { name: string }) => p.name === "headings_of"));
});

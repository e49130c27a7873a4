import assert from "node:assert/strict";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";

Deno.test("GET /healthz and /readyz answer when the store does", async () => {
  await using db = await freshDb();
  const { app } = testApp(db);
  assert.equal((await app.request("/healthz")).status, 200);
  const ready = await app.request("/readyz");
  assert.equal(ready.status, 200);
  assert.equal((await ready.json()).store, db.kind);
});

Deno.test("/readyz says how this process's searches were answered: from memory, or with the SQL leg", async () => {
  await using db = await freshDb();
  const inSql = testApp(db, { SEARCH_INDEX_MB: "0" });
  await createWiki(db, { id: "w", visibility: "public" });
  await writePage(testDeps(db), { wikiId: "w", path: "P", markdown: "# P\n\nA walrus." }, {
    source: "t",
  });
  const cache = async () => (await (await inSql.app.request("/readyz")).json()).index_cache;
  const before = await cache();
  assert.equal((await inSql.app.request("/api/v1/public/wikis/w/search?q=walrus")).status, 200);
  const after = await cache();
  assert.equal(after.bound_mib, 0);
  assert.equal(after.searches_with_sql, before.searches_with_sql + 1);
  assert.equal(after.searches_in_memory, before.searches_in_memory);
  assert.equal(after.wikis, 0);
});

Deno.test("GET /api/v1/public/wikis lists public wikis with page counts, never private ones", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "alpha", title: "Alpha", visibility: "public", description: "First" });
  await createWiki(db, { id: "secret", visibility: "private" });
  for (const path of ["One", "Two"]) {
    await writePage(testDeps(db), { wikiId: "alpha", path, markdown: "x" }, { source: "t" });
  }
  const { app } = testApp(db);
  const res = await app.request("/api/v1/public/wikis");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.deepEqual(body.wikis.map((w: { id: string; pages: number }) => [w.id, w.pages]), [[
    "alpha",
    2,
  ]]);
  assert.equal(body.wikis[0].url, "http://wiki.test/w/alpha");
  assert.ok(!Number.isNaN(Date.parse(body.wikis[0].updated_at)));
  assert.equal(body.next_cursor, null);
});

Deno.test("the public wiki list pages with a cursor and filters by query", async () => {
  await using db = await freshDb();
  for (const id of ["a1", "a2", "a3", "b1"]) await createWiki(db, { id, visibility: "public" });
  const { app } = testApp(db);
  const first = await (await app.request("/api/v1/public/wikis?limit=2")).json();
  assert.deepEqual(first.wikis.map((w: { id: string }) => w.id), ["a1", "a2"]);
  const second =
    await (await app.request(`/api/v1/public/wikis?limit=2&cursor=${first.next_cursor}`)).json();
  assert.deepEqual(second.wikis.map((w: { id: string }) => w.id), ["a3", "b1"]);
  assert.equal(second.next_cursor, null);
  const filtered = await (await app.request("/api/v1/public/wikis?query=b")).json();
  assert.deepEqual(filtered.wikis.map((w: { id: string }) => w.id), ["b1"]);
});

Deno.test("bad input and unknown routes get problem+json with a code and the request id", async () => {
  await using db = await freshDb();
  const { app } = testApp(db);
  const bad = await app.request("/api/v1/public/wikis?limit=0", {
    headers: { "X-Request-Id": "req-123" },
  });
  assert.equal(bad.status, 400);
  assert.equal(bad.headers.get("content-type"), "application/problem+json");
  assert.equal(bad.headers.get("x-request-id"), "req-123");
  const problem = await bad.json();
  assert.equal(problem.code, "bad_request");
  assert.equal(problem.request_id, "req-123");
  assert.match(problem.detail, /limit/);
  const cursor = await app.request("/api/v1/public/wikis?cursor=garbage");
  assert.equal((await cursor.json()).code, "bad_request");
  const missing = await app.request("/api/v1/nothing-here");
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).code, "not_found");
});

import assert from "node:assert/strict";
import type { Hono } from "hono";
import { writePage } from "../src/pages/write_page.ts";
import type { Deps } from "../src/deps.ts";
import { searchWikis } from "../src/search/search_wikis.ts";
import { versionViewBytes } from "../src/search/version_index.ts";
import { publishVersion } from "../src/versions/versions.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { countingDb, freshDb, testApp, testDeps } from "./helpers.ts";
import { createApp } from "../src/app.ts";
import { replicaSet } from "../src/db/replicas.ts";

type Result = { page: string; snippet: string; score: number; version?: string };

const PAGES: Record<string, string> = {
  Compost: "# Compost\n\nA compost heap is ready after three months of turning.\n\n" +
    "## Worms\n\nRed worms eat the kitchen scraps of a compost heap.\n",
  Mulch: "# Mulch\n\nMulch of bark keeps the soil moist through a dry summer.\n",
  Leaves: "# Leaves\n\nLeaf mould from oak leaves takes two years in a wire heap.\n",
  Seeds: "# Seeds\n\nSeeds sown in spring want a fine tilth and a moist heap of compost.\n",
};

/** Writes a page as a test would: a test source, no account. */
function write(deps: Deps, wikiId: string, path: string, markdown: string) {
  return writePage(deps, { wikiId, path, markdown }, { source: "test" });
}

async function search(app: Hono, wiki: string, q: string, version?: string) {
  const params = new URLSearchParams({ q, ...(version ? { version } : {}) });
  const res = await app.request(`/api/v1/public/wikis/${wiki}/search?${params}`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { results: Result[] }).results;
}

Deno.test("versions pinning the same revision index it once, and rank as a wiki of their pages", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db);
  for (const id of ["lab", "copy"]) await createWiki(db, { id, visibility: "public" });
  for (const [path, markdown] of Object.entries(PAGES)) {
    await write(deps, "lab", path, markdown);
    await write(deps, "copy", path, markdown);
  }
  // v1 and v2 pin the same revisions; Compost and Mulch change after both.
  await publishVersion(db, "lab", { name: "v1" }, null);
  await publishVersion(db, "lab", { name: "v2" }, null);
  await write(deps, "lab", "Compost", "# Compost\n\nA hot bin is ready after ten days.\n");
  await write(deps, "lab", "Mulch", "# Mulch\n\nGravel.\n");

  const queries = ["compost heap ready", "moist heap", "worms kitchen", "three months"];
  const copy = await Promise.all(queries.map((q) => search(app, "copy", q)));
  const v1 = await Promise.all(queries.map((q) => search(app, "lab", q, "v1")));
  const once = versionViewBytes(deps.db);
  assert.equal(once.versions, 1);
  assert.ok(once.overlay_postings > 0 && once.overlay_chunks === 3, JSON.stringify(once));
  const v2 = await Promise.all(queries.map((q) => search(app, "lab", q, "v2")));
  // The second version holds masks only: the revisions' chunks and postings are one copy.
  const twice = versionViewBytes(deps.db);
  assert.equal(twice.versions, 2);
  assert.equal(twice.overlay_chunks, once.overlay_chunks);
  assert.equal(twice.overlay_postings, once.overlay_postings);

  // Each version finds what a wiki holding exactly its pages finds, with the same scores.
  const shape = (results: Result[]) => results.map((r) => [r.page, r.snippet, r.score]);
  for (let i = 0; i < queries.length; i++) {
    assert.ok(copy[i]!.length > 0, queries[i]);
    assert.deepEqual(shape(v1[i]!), shape(copy[i]!), queries[i]);
    assert.deepEqual(shape(v2[i]!), shape(copy[i]!), queries[i]);
  }
  assert.deepEqual(await search(app, "lab", "three months"), []);

  // A version pinning another revision of a changed page adds that revision, once.
  await publishVersion(db, "lab", { name: "v3" }, null);
  await write(deps, "lab", "Compost", "# Compost\n\nA tumbler is ready after six weeks.\n");
  const v3 = await search(app, "lab", "ready", "v3");
  assert.match(v3[0]!.snippet, /ten days/);
  const again = await search(app, "lab", "ready", "v1");
  assert.match(again[0]!.snippet, /three months/);
  const three = versionViewBytes(deps.db);
  assert.equal(three.overlay_chunks, once.overlay_chunks + 1);
});

Deno.test("a search in a version is as many statements as one of the live pages: two, warm", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "lab", visibility: "public" });
  for (const [path, markdown] of Object.entries(PAGES)) await write(deps, "lab", path, markdown);
  await publishVersion(db, "lab", { name: "v1" }, null);
  await write(deps, "lab", "Compost", "# Compost\n\nGone.\n");
  const counted = countingDb(db);
  const search = { ...deps, db: counted.db };
  const statements = async (version?: string) => {
    const first = await searchWikis(search, ["lab"], { query: "compost heap", version });
    counted.statements.length = 0;
    const again = await searchWikis(search, ["lab"], { query: "compost heap", version });
    assert.deepEqual(again, first);
    return counted.statements.length;
  };
  const live = await statements();
  // The version is looked up, and the query's terms read, with the statistics.
  assert.equal(await statements("v1"), live, counted.statements.join("\n---\n"));
  assert.equal(live, 2);
  // An unknown version still fails with the versions there are.
  await assert.rejects(
    searchWikis(search, ["lab"], { query: "compost", version: "v9" }),
    /Version "v9" not found.*"v1", "latest"/,
  );
});

Deno.test("with read replicas, a version's view is built once, not per request", async () => {
  await using db = await freshDb();
  const primary = countingDb(db);
  const replica = countingDb(db);
  const deps = testDeps(primary.db);
  const app = createApp({ ...deps, replicas: replicaSet(primary.db, [replica.db], deps.log) });
  await createWiki(db, { id: "lab", visibility: "public" });
  for (const [path, markdown] of Object.entries(PAGES)) await write(deps, "lab", path, markdown);
  await publishVersion(db, "lab", { name: "v1" }, null);
  await write(deps, "lab", "Compost", "# Compost\n\nGone.\n");
  const statements = async (version?: string) => {
    const first = await search(app, "lab", "compost heap", version);
    primary.statements.length = 0;
    replica.statements.length = 0;
    const again = await search(app, "lab", "compost heap", version);
    assert.deepEqual(again, first);
    return [...primary.statements, ...replica.statements];
  };
  const live = await statements();
  const pinned = await statements("v1");
  // Each request reads through its own handle on the replica: the view, the version's page
  // index and its revisions are the database's, not the handle's, and are not read again.
  assert.equal(pinned.length, live.length, pinned.join("\n---\n"));
  assert.match((await search(app, "lab", "three months", "v1"))[0]!.snippet, /three months/);
});

import assert from "node:assert/strict";
import { writePage } from "../src/pages/write_page.ts";
import { reparsePages } from "../src/search/reindex.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";

const by = { source: "test" };

type Found = { results: { page: string; section: string | null }[] };

// Reference documentation heads a field's section with the field's name, in camelCase; its
// text says what the field does in other words than the question's.
const bluegreen = `# BlueGreen Deployment Strategy

## previewReplicaCount

The number of pods the preview stack runs until it is promoted.

## scaleDownDelaySeconds

Seconds to wait after the switch before the previous ReplicaSet goes away. Defaults to 30.
`;

// Another page holding the question's other words.
const concepts = `# Concepts

## Blue-Green

A blue-green deployment runs the old version and the new version side by side, and switches
traffic to the new version once it is ready.

## Versions

The old version keeps running for a while after each release, so that traffic can go back to
it.
`;

// A page about web sockets, named in one word; another page says "web" and "connections".
const websocket = `# WebSocket

Browser clients connect through the WebSocket listener on port 8080.
`;
const monitoring = `# Monitoring

The monitoring endpoint serves web pages about the server's connections and clients.
`;

async function searchApp() {
  const db = await freshDb();
  const { app, deps } = testApp(db);
  await createWiki(db, { id: "docs", visibility: "public" });
  for (const [path, markdown] of Object.entries({ bluegreen, concepts, websocket, monitoring })) {
    await writePage(deps, { wikiId: "docs", path, markdown }, by);
  }
  const top = async (q: string) => {
    const res = await app.request(`/api/v1/public/wikis/docs/search?q=${encodeURIComponent(q)}`);
    assert.equal(res.status, 200);
    return ((await res.json()) as Found).results[0];
  };
  return { db, top };
}

Deno.test("search reads a camelCase or PascalCase word as its words too: scaleDownDelaySeconds, WebSocket", async () => {
  const { db, top } = await searchApp();
  await using _ = db;
  const found = await top("How long is the delay before the old version is scaled down?");
  assert.equal(found?.page, "bluegreen");
  assert.equal(found?.section, "BlueGreen Deployment Strategy > scaleDownDelaySeconds");
  assert.equal((await top("Which port do web socket clients connect to?"))?.page, "websocket");
  // The name as written still finds its section.
  assert.equal(
    (await top("previewReplicaCount"))?.section,
    "BlueGreen Deployment Strategy > previewReplicaCount",
  );
});

Deno.test('search does not read a heading of hyphenated words ("Blue-Green") as a setting the question names', async () => {
  const { db, top } = await searchApp();
  await using _ = db;
  // Every word of the question but "blue-green" is the field's: the concepts section called
  // Blue-Green is not what it names.
  const found = await top(
    "After a blue-green switch, how long is the delay before the old version is scaled down?",
  );
  assert.equal(found?.section, "BlueGreen Deployment Strategy > scaleDownDelaySeconds");
});

Deno.test("deno task reindex re-indexes the pages with camelCase words stored before they were split", async () => {
  const { db, top } = await searchApp();
  await using _ = db;
  const { deps } = testApp(db);
  // As an older release stored it: the field's name counted as one word, not four more.
  await db`
    UPDATE chunks SET length = length - 4
    WHERE page_id = (SELECT id FROM pages WHERE path = 'bluegreen') AND text LIKE '%Seconds to wait%'`;
  assert.equal(await reparsePages(deps, "docs"), 1, "only the page read otherwise now");
  assert.equal(await reparsePages(deps, "docs"), 0, "a second run has nothing to do");
  const found = await top("How long is the delay before the old version is scaled down?");
  assert.equal(found?.section, "BlueGreen Deployment Strategy > scaleDownDelaySeconds");
});

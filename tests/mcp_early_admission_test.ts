import assert from "node:assert/strict";
import { createApp } from "../src/app.ts";
import { replicaSet } from "../src/db/replicas.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { countingDb, freshDb, testApp, testDeps } from "./helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";
import { seedPages } from "./space_helpers.ts";

/** The endpoint's own look-up of its wiki (`selectWiki`). */
const WIKI_LOOKUP = /^SELECT \* FROM wikis WHERE id = \$1$/;
/** A search's first statement (`selectLexicalStats`). */
const SEARCH_STATS = /FROM search_stats s\b/;

/** A public wiki with a page, behind a counting store whose wiki look-ups can be held. */
async function gardenWithGate(db: Parameters<typeof countingDb>[0]) {
  const events: string[] = [];
  let hold = false;
  let searched: () => void = () => {};
  const counted = countingDb(db, async (text) => {
    if (SEARCH_STATS.test(text)) {
      events.push("search statement answered");
      searched();
    }
    if (hold && WIKI_LOOKUP.test(text)) {
      // Held until a search statement has been answered: it never is when the search waits
      // for this look-up, so the wait gives up after a while and the order says so.
      const started = new Promise<void>((resolve) => searched = resolve);
      await Promise.race([started, new Promise((resolve) => setTimeout(resolve, 3000))]);
      events.push("wiki looked up");
    }
  });
  const { app, deps } = testApp(counted.db);
  await createWiki(db, { id: "garden", visibility: "public", title: "Garden" });
  await seedPages(deps, "garden", { Roses: "# Roses\nRoses need pruning in early spring." });
  const lookups = () => counted.statements.filter((s) => WIKI_LOOKUP.test(s)).length;
  return { app, events, lookups, holdLookups: () => hold = true };
}

for (const revision of ["2025-11-25", "2026-07-28"] as const) {
  Deno.test(`MCP ${revision}: a search on a wiki found public moments ago is admitted by its own statement, without a look-up`, async () => {
    await using db = await freshDb();
    const { app, events, lookups, holdLookups } = await gardenWithGate(db);
    const client = await mcpClient(app, "/mcp/w/garden/", undefined, revision);
    await callOk(client, "search", { query: "pruning roses" });
    holdLookups();
    events.length = 0;
    const before = lookups();
    const found = await callOk<{ results: { page: string }[] }>(client, "search", {
      query: "pruning roses",
    });
    assert.deepEqual(found.results.map((r) => r.page), ["Roses"]);
    assert.deepEqual(events, ["search statement answered"]);
    assert.equal(lookups(), before, "the wiki's row is not read beside the search");
    await client.close();
  });

  Deno.test(`MCP ${revision}: get_page on a wiki found public moments ago still looks the wiki up`, async () => {
    await using db = await freshDb();
    const { app, lookups } = await gardenWithGate(db);
    const client = await mcpClient(app, "/mcp/w/garden/", undefined, revision);
    await callOk(client, "search", { query: "pruning roses" });
    const before = lookups();
    await callOk(client, "get_page", { page: "Roses" });
    assert.equal(lookups(), before + 1);
    await client.close();
  });
}

Deno.test("MCP: with read replicas, a search still looks its wiki up on the primary", async () => {
  await using db = await freshDb();
  const primary = countingDb(db);
  const deps = testDeps(primary.db);
  const app = createApp({ ...deps, replicas: replicaSet(primary.db, [db], deps.log) });
  await createWiki(db, { id: "garden", visibility: "public", title: "Garden" });
  await seedPages(deps, "garden", { Roses: "# Roses\nRoses need pruning in early spring." });
  const client = await mcpClient(app, "/mcp/w/garden/");
  const lookups = () => primary.statements.filter((s) => WIKI_LOOKUP.test(s)).length;
  await callOk(client, "search", { query: "pruning roses" });
  const before = lookups();
  await callOk(client, "search", { query: "pruning roses" });
  // The replica's statistics may lag: a wiki made private is known from the primary's row.
  assert.equal(lookups(), before + 1);
  await client.close();
});

for (const lean of ["true", "false"]) {
  Deno.test(`MCP (lean calls ${lean}): a wiki made private since it was last found public answers 404, not the early answer`, async () => {
    await using db = await freshDb();
    const { app: leanApp } = await gardenWithGate(db);
    const app = lean === "true" ? leanApp : testApp(db, { MCP_LEAN_CALLS: "false" }).app;
    const post = () =>
      app.request("http://localhost/mcp/w/garden/", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "MCP-Protocol-Version": "2025-11-25",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "search", arguments: { query: "pruning roses" } },
        }),
      });
    const before = await post();
    assert.equal(before.status, 200);
    assert.match(JSON.stringify(await before.json()), /Roses/);
    await db`UPDATE wikis SET visibility = 'private' WHERE id = 'garden'`;
    const after = await post();
    assert.equal(after.status, 404);
    const body = await after.text();
    assert.doesNotMatch(body, /Roses|pruning/);
    const again = await post();
    assert.equal(again.status, 404, "and again, now looked up first");
    assert.equal(await again.text(), body, "worded as the look-up words it");
  });
}

import assert from "node:assert/strict";
import type { Hono } from "hono";
import type { Db } from "../src/db/db.ts";
import type { SearchOutput } from "../src/search/search_wikis.ts";
import { seedDocs } from "../src/wikis/seed_docs.ts";
import { freshDb, testApp } from "./helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";

// Search and ask on the user guide (docs/guide/, seeded as the public wiki `docs`), through
// REST and MCP, as an assistant would use them.

const search = async (app: Hono, q: string): Promise<SearchOutput["results"]> =>
  (await (await app.request(
    `/api/v1/public/wikis/docs/search?q=${encodeURIComponent(q)}&limit=15`,
  )).json()).results;

async function guideApp(db: Db) {
  const { app, deps } = testApp(db, { RATE_LIMIT_ANON_PER_MINUTE: "100000" });
  await seedDocs(deps);
  return app;
}

Deno.test("search on the guide puts the page a question names first, and a section above pages that only mention it", async () => {
  await using db = await freshDb();
  const app = await guideApp(db);
  const tokens = await search(app, "how do tokens work");
  assert.equal(tokens[0]!.page, "Tokens", tokens.map((r) => r.page).join());
  const limits = await search(app, "rate limits");
  assert.equal(limits[0]!.page, "Tokens", limits.map((r) => `${r.page}: ${r.section}`).join());
  assert.equal(limits[0]!.section, "Tokens > Rate limits");
  // "Writing pages" shows the link syntax `[[Tokens#Rate limits]]`; "Connecting an assistant"
  // links to the section: both rank below it.
  const at = (page: string) => limits.findIndex((r) => r.page === page);
  assert.ok(at("Writing pages") > 0 && at("Connecting an assistant") > 0);
  // The same ranking over MCP.
  const client = await mcpClient(app, "/mcp/w/docs/");
  try {
    const found = await callOk<SearchOutput>(client, "search", { query: "how do tokens work" });
    assert.equal(found.results[0]!.page, "Tokens");
  } finally {
    await client.close();
  }
});

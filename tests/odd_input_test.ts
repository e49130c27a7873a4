import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import { decodeUriComponent } from "../src/lib/decode_uri.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";
import { callError, mcpClient } from "./mcp_helpers.ts";

const by = { source: "test" };

Deno.test("decodeUriComponent answers null for malformed percent-encoding instead of throwing", () => {
  assert.equal(decodeUriComponent("Caf%C3%A9"), "Café");
  assert.equal(decodeUriComponent("100%25"), "100%");
  for (const bad of ["%", "%25%", "%E0%A4%A", "%ED%A0%80", "%zz"]) {
    assert.equal(decodeUriComponent(bad), null, bad);
  }
});

Deno.test("GET /w/<id>/<path>.md decodes the path once: malformed is 400, %25 is a percent sign", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db, { RATE_LIMIT_ANON_PER_MINUTE: "100000" });
  await createWiki(db, { id: "docs", visibility: "public" });
  await writePage(
    deps,
    { wikiId: "docs", path: "Growth 100%", markdown: "# Up\n\nAll of it." },
    by,
  );
  for (
    const bad of ["/w/docs/%E0%A4%A.md", "/w/docs/%.md", "/w/docs/a%zz.md", "/w/docs/%ED%A0%80.md"]
  ) {
    const res = await app.request(bad);
    assert.equal(res.status, 400, bad);
    assert.match((await res.json()).detail, /not valid percent-encoding/, bad);
  }
  const missing = await app.request("/w/docs/%25.md");
  assert.equal(missing.status, 404, "the page named % does not exist");
  const found = await app.request("/w/docs/Growth%20100%25.md");
  assert.equal(found.status, 200);
  assert.match(await found.text(), /All of it/);
});

Deno.test("an unpaired surrogate in JSON is a 400 on PUT and a failed page in an import that goes on", async () => {
  await using db = await freshDb();
  testDeps(db);
  const { app } = testApp(db, { RATE_LIMIT_TOKEN_PER_MINUTE: "100000" });
  const ana = await createAccount(db, { email: "ana@example.com" });
  await createWiki(db, { id: "notes", visibility: "private", ownerAccountId: ana.id });
  const { token } = await createToken(db, { accountId: ana.id, kind: "account", name: "a" });
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  // JSON.stringify keeps a lone surrogate as the escape `\ud800`, as a client would send it.
  const put = await app.request("/api/v1/spaces/notes/pages/Odd", {
    method: "PUT",
    headers,
    body: JSON.stringify({ markdown: "# Odd\n\nBroken \ud800 here" }),
  });
  assert.equal(put.status, 400);
  assert.match((await put.json()).detail, /not valid Unicode: an unpaired surrogate/);
  const titled = await app.request("/api/v1/spaces/notes/pages/Odd", {
    method: "PUT",
    headers,
    body: JSON.stringify({ markdown: "# Odd", title: "\udc00" }),
  });
  assert.equal(titled.status, 400);

  const imported = await app.request("/api/v1/spaces/notes/import", {
    method: "POST",
    headers,
    body: JSON.stringify({
      pages: [
        { path: "First", markdown: "# First" },
        { path: "Broken", markdown: "# Broken \ud800" },
        { path: "Bad\ud800Path", markdown: "# Fine" },
        { path: "Last", markdown: "# Last" },
      ],
    }),
  });
  assert.equal(imported.status, 200);
  const summary = await imported.json();
  assert.equal(summary.added, 2);
  const failed = summary.failed.map((f: { name: string }) => f.name.slice(0, 8));
  assert.deepEqual(failed, ["pages[1]", "pages[2]"]);
  const rows = await db<{ path: string }>`
    SELECT path FROM pages WHERE wiki_id = 'notes' ORDER BY path`;
  assert.deepEqual(
    rows.map((r) => r.path),
    ["First", "Last"],
    "pages after the bad one are written",
  );
});

Deno.test("an unpaired surrogate in a search query is a clear error, not an internal one", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db, { RATE_LIMIT_ANON_PER_MINUTE: "100000" });
  await createWiki(db, { id: "docs", visibility: "public" });
  await writePage(deps, { wikiId: "docs", path: "A", markdown: "# A\n\nText." }, by);
  const mcp = await mcpClient(app, "/mcp/w/docs/");
  try {
    const text = await callError(mcp, "search", { query: "odd \ud800 query" });
    assert.match(text, /not valid Unicode/);
  } finally {
    await mcp.close();
  }
});

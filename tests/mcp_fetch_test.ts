import assert from "node:assert/strict";
import type { Client } from "npm:@modelcontextprotocol/client@2.4.0";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createTeam } from "../src/teams/teams.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp, testDeps } from "./helpers.ts";
import { callError, callOk, mcpClient } from "./mcp_helpers.ts";

const by = { source: "test" };

const SETUP_V1 = "# Setup\nThe old way: copy the binary by hand.\n";
const SETUP_V2 = [
  "# Setup",
  "How to set the service up.",
  "",
  "## Install",
  "Run the installer with deno.",
  "",
  "## Configure",
  "Set BASE_URL and the flux capacitor.",
  "",
].join("\n");

/** A public `docs` wiki (one page at two revisions), a public `kitchen`, and ana's two spaces. */
async function world(db: Db) {
  const deps = testDeps(db);
  const write = (wikiId: string, path: string, markdown: string) =>
    writePage(deps, { wikiId, path, markdown }, by);
  await createWiki(db, { id: "docs", title: "Docs", visibility: "public" });
  await createWiki(db, { id: "kitchen", title: "Kitchen", visibility: "public" });
  await write("docs", "Home", "# Home\nWelcome. Start with [[Guides/Setup]].");
  await write("docs", "Guides/Setup", SETUP_V1);
  await write("docs", "Guides/Setup", SETUP_V2);
  await write("docs", "Guides/Tools", "# Tools\nThe tools an assistant calls.");
  await write("kitchen", "Bread", "# Bread\nBread needs flour, water, salt and yeast.");
  const ana = await createAccount(db, { email: "ana@example.com" });
  await createWiki(db, { id: "ana-notes", visibility: "private", ownerAccountId: ana.id });
  await createTeam(db, { id: "lab", ownerAccountId: ana.id });
  await createWiki(db, { id: "lab-wiki", visibility: "private", ownerTeamId: "lab" });
  await write("ana-notes", "Secret plan", "# Secret plan\nThe quarterly launch is in March.");
  await write("lab-wiki", "Protocol", "# Protocol\nThe quarterly centrifuge check.");
  const account =
    (await createToken(db, { accountId: ana.id, kind: "account", name: "laptop" })).token;
  return { account };
}

type SearchText = { results: { id: string; title: string; url: string; wiki: string }[] };
type FetchText = {
  id: string;
  title: string;
  text: string;
  url: string;
  metadata: { wiki: string; page: string; revision: number };
};

/** Calls a tool with ChatGPT's arguments and reads the JSON its one text item carries. */
async function callJson<T>(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  assert.ok(!result.isError, JSON.stringify(result.content));
  const content = result.content as { type: string; text: string }[];
  assert.equal(content.length, 1);
  assert.equal(content[0]!.type, "text");
  return JSON.parse(content[0]!.text) as T;
}

Deno.test("search with only a query, then fetch by its id, works on /mcp/w/docs/", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/w/docs/");
  const { tools } = await client.listTools();
  const fetch = tools.find((t) => t.name === "fetch")!;
  assert.deepEqual(fetch.inputSchema.required, ["id"]);
  assert.deepEqual(tools.find((t) => t.name === "search")!.inputSchema.required, ["query"]);

  const found = await callJson<SearchText>(client, "search", { query: "installer" });
  const hit = found.results[0]!;
  assert.equal(hit.id, "docs/Guides/Setup");
  assert.equal(hit.title, "Setup");
  assert.match(hit.url, /^http:\/\/wiki\.test\/w\/docs\/Guides\/Setup/);

  const page = await callJson<FetchText>(client, "fetch", { id: hit.id });
  assert.equal(page.id, "docs/Guides/Setup");
  assert.equal(page.title, "Setup");
  assert.equal(page.url, "http://wiki.test/w/docs/Guides/Setup");
  assert.match(page.text, /Run the installer with deno/);
  assert.doesNotMatch(page.text, /^# Setup/);
  assert.equal(page.metadata.revision, 2);
  assert.equal(page.metadata.page, "Guides/Setup");
  // The structured result carries the same document.
  assert.equal((await callOk<FetchText>(client, "fetch", { id: hit.id })).title, "Setup");
  // A bare path and the page url are ids too; another wiki's url is not.
  assert.equal((await callJson<FetchText>(client, "fetch", { id: "guides/setup" })).title, "Setup");
  assert.equal((await callJson<FetchText>(client, "fetch", { id: hit.url })).title, "Setup");
  assert.match(
    await callError(client, "fetch", { id: "http://wiki.test/w/kitchen/Bread" }),
    /serves wiki "docs" only/,
  );
});

Deno.test("on /mcp/ an account token with two spaces searches both and fetches from each", async () => {
  await using db = await freshDb();
  const { account } = await world(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp", account);
  const found = await callJson<SearchText>(client, "search", { query: "quarterly" });
  assert.deepEqual(found.results.map((r) => r.id).sort(), [
    "ana-notes/Secret plan",
    "lab-wiki/Protocol",
  ]);
  for (const r of found.results) assert.equal(r.id.split("/")[0], r.wiki);
  const texts = [];
  for (const r of found.results) {
    const page = await callJson<FetchText>(client, "fetch", { id: r.id });
    assert.equal(page.metadata.wiki, r.wiki);
    texts.push(page.text);
  }
  assert.ok(texts.some((t) => /launch is in March/.test(t)));
  assert.ok(texts.some((t) => /centrifuge check/.test(t)));
  // Naming a space still narrows the search; a public wiki is no space of hers.
  const one = await callOk<SearchText>(client, "search", { query: "quarterly", space: "lab-wiki" });
  assert.deepEqual(one.results.map((r) => r.id), ["lab-wiki/Protocol"]);
  assert.match(await callError(client, "fetch", { id: "docs/Home" }), /not found|not one of/);
});

Deno.test("the hub searches every public wiki when no wiki is named, never a private one", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/hub/");
  const bread = await callJson<SearchText>(client, "search", { query: "yeast" });
  assert.equal(bread.results[0]!.id, "kitchen/Bread");
  // Only pages with real evidence come back: the guide says nothing of yeast.
  assert.deepEqual([...new Set(bread.results.map((r) => r.wiki))].sort(), ["kitchen"]);
  const tools = await callJson<SearchText>(client, "search", { query: "assistant calls" });
  assert.ok(tools.results.some((r) => r.wiki === "docs"), "the docs wiki is searched too");
  const page = await callJson<FetchText>(client, "fetch", { id: "kitchen/Bread" });
  assert.match(page.text, /flour, water/);
  const secret = await callJson<SearchText>(client, "search", { query: "quarterly launch March" });
  assert.ok(secret.results.every((r) => r.wiki === "docs" || r.wiki === "kitchen"));
  assert.match(await callError(client, "fetch", { id: "ana-notes/Secret plan" }), /not found/);
  assert.match(
    await callError(client, "fetch", { id: "Bread" }),
    /Pass an id from search, "<wiki>\/<page path>", or a page url, not "Bread"/,
  );
  // The hub's other tools still need `wiki`.
  assert.deepEqual(
    (await client.listTools()).tools.find((t) => t.name === "get_page")!.inputSchema.required
      ?.slice().sort(),
    ["page", "wiki"],
  );
});

type Page = {
  page: string;
  markdown: string;
  revision: number;
  current_revision: number;
  unchanged: boolean;
  section: string | null;
};

/** The text item of a get_page result. */
async function pageText(client: Client, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name: "get_page", arguments: args });
  assert.ok(!result.isError, JSON.stringify(result.content));
  return (result.content as { text: string }[])[0]!.text;
}

Deno.test("get_page reads an earlier revision on request and says which one it returned", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/w/docs/");
  const old = await callOk<Page>(client, "get_page", { page: "Guides/Setup", revision: 1 });
  assert.equal(old.markdown, SETUP_V1);
  assert.equal(old.revision, 1);
  assert.equal(old.current_revision, 2);
  assert.match(
    await pageText(client, { page: "Guides/Setup", revision: 1 }),
    /revision 1, an earlier one: the page is now at revision 2/,
  );
  const now = await callOk<Page>(client, "get_page", { page: "Guides/Setup" });
  assert.equal(now.revision, 2);
  assert.match(now.markdown, /Run the installer/);
  assert.match(
    await callError(client, "get_page", { page: "Guides/Setup", revision: 9 }),
    /has no revision 9 \(its current revision is 2\)/,
  );
});

Deno.test("get_page with if_changed_since the current revision answers unchanged without the text", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/w/docs/");
  const same = await callOk<Page>(client, "get_page", {
    page: "Guides/Setup",
    if_changed_since: 2,
  });
  assert.equal(same.unchanged, true);
  assert.equal(same.markdown, "");
  assert.equal(same.revision, 2);
  assert.match(
    await pageText(client, { page: "Guides/Setup", if_changed_since: 2 }),
    /unchanged: still at revision 2/,
  );
  const moved = await callOk<Page>(client, "get_page", {
    page: "Guides/Setup",
    if_changed_since: 1,
  });
  assert.equal(moved.unchanged, false);
  assert.match(moved.markdown, /Run the installer/);
});

type PageList = {
  pages: { page: string; title: string }[];
  next_cursor: string | null;
  outline: { page: string; headings: { level: number; text: string; anchor: string }[] } | null;
};

Deno.test("list_pages pages through the tree and gives one page's headings, like the REST list", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/w/docs/");
  const first = await callOk<PageList>(client, "list_pages", { limit: 2 });
  assert.deepEqual(first.pages.map((p) => p.page), ["Guides/Setup", "Guides/Tools"]);
  assert.equal(first.outline, null);
  assert.ok(first.next_cursor);
  const rest = await callOk<PageList>(client, "list_pages", {
    limit: 2,
    cursor: first.next_cursor,
  });
  assert.deepEqual(rest.pages.map((p) => p.page), ["Home"]);
  assert.equal(rest.next_cursor, null);
  const folder = await callOk<PageList>(client, "list_pages", {
    prefix: "guides",
    headings_of: "guides/setup",
  });
  assert.deepEqual(folder.pages.map((p) => [p.page, p.title]), [
    ["Guides/Setup", "Setup"],
    ["Guides/Tools", "Tools"],
  ]);
  assert.deepEqual(folder.outline?.headings.map((h) => [h.level, h.text, h.anchor]), [
    [1, "Setup", "setup"],
    [2, "Install", "install"],
    [2, "Configure", "configure"],
  ]);
  const rendered = await client.callTool({
    name: "list_pages",
    arguments: { headings_of: "Guides/Setup" },
  });
  assert.match(
    (rendered.content as { text: string }[])[0]!.text,
    /^ {2}- Setup \(page "Guides\/Setup"\)$/m,
  );
  const rest2 = await (await app.request("/api/v1/public/wikis/docs/pages?limit=2")).json();
  assert.deepEqual(rest2.pages.map((p: { page: string }) => p.page), [
    "Guides/Setup",
    "Guides/Tools",
  ]);
  assert.equal(rest2.next_cursor, first.next_cursor);
});

Deno.test("get_page takes the url search returns and Page#Section, and names each slice's section", async () => {
  await using db = await freshDb();
  await world(db);
  const { app } = testApp(db);
  const client = await mcpClient(app, "/mcp/hub/");
  const found = await callOk<{ results: { url: string; section: string | null }[] }>(
    client,
    "search",
    { wiki: "docs", query: "flux capacitor" },
  );
  const url = found.results[0]!.url;
  assert.equal(url, "http://wiki.test/w/docs/Guides/Setup#configure");
  const byUrl = await callOk<Page>(client, "get_page", { wiki: "docs", page: url });
  assert.equal(byUrl.page, "Guides/Setup");
  assert.match(byUrl.markdown, /^## Configure\nSet BASE_URL/);
  assert.equal(byUrl.section, "Setup > Configure");
  const bySection = await callOk<Page>(client, "get_page", {
    wiki: "docs",
    page: "Guides/Setup#Install",
  });
  assert.match(bySection.markdown, /^## Install\n/);
  assert.equal(bySection.section, "Setup > Install");
  assert.match(
    await callError(client, "get_page", { wiki: "docs", page: "Guides/Setup#Nowhere" }),
    /no section "Nowhere"; its sections: "Setup", "Install", "Configure"/,
  );
  assert.match(
    await callError(client, "get_page", { wiki: "kitchen", page: url }),
    /This url is of "docs", not of "kitchen"/,
  );
  // A slice past the start names the section it starts in.
  const sliced = await callOk<Page & { next_offset: number }>(client, "get_page", {
    wiki: "docs",
    page: "Guides/Setup",
    max_chars: 200,
    offset: SETUP_V2.indexOf("Run the"),
  });
  assert.equal(sliced.section, "Setup > Install");
  // The text gives the title once, not again as the body's first heading.
  const text = await pageText(client, { wiki: "docs", page: "Guides/Setup" });
  assert.equal(text.match(/^# Setup$/gm)?.length, 1);
  assert.match(text, /^# Setup\n\(page "Guides\/Setup", revision 2, [^\n]+\)\n\nHow to set/);
});

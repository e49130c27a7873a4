import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/client@2.4.0";
import type { Hono } from "hono";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import { migrate, readMigrations } from "../src/db/migrate.ts";
import { writePage } from "../src/pages/write_page.ts";
import { recordSearch, recordUsage, usageClient } from "../src/usage/record_usage.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { browser } from "./browser.ts";
import { countingDb, freshDb, testApp, testDeps } from "./helpers.ts";
import { usageWritten } from "../src/usage/usage_writes.ts";
import { callOk } from "./mcp_helpers.ts";

/** An MCP SDK client calling the app in process, with a token and a User-Agent of its own. */
async function mcpAs(app: Hono, path: string, token: string, userAgent: string) {
  const client = new Client({ name: "usage-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://localhost${path}`), {
    fetch: async (url, init) => await app.request(url.toString(), init),
    requestInit: { headers: { Authorization: `Bearer ${token}`, "User-Agent": userAgent } },
  });
  await client.connect(transport);
  return client;
}

/** Signs up an account in a new browser; returns the browser and the account's id. */
async function person(app: Hono, db: Db, email: string) {
  const b = browser(app);
  const res = await b.post("/signup", {
    _csrf: await b.token("/signup"),
    email,
    name: email.split("@")[0]!,
    password: "a long enough password",
  });
  assert.equal(res.status, 303);
  const [row] = await db<{ id: string }>`SELECT id FROM accounts WHERE email = ${email}`;
  return { b, id: row!.id };
}

/** The rows of the table that follows a heading, as the text of their cells. */
function tableAfter(html: string, heading: string): string[][] {
  const start = html.indexOf(`<h2>${heading}</h2>`);
  assert.ok(start >= 0, `no heading "${heading}"`);
  const rest = html.slice(start + heading.length + 9);
  const section = rest.slice(0, rest.search(/<h2>|$/));
  const table = /<table>[\s\S]*?<\/table>/.exec(section)?.[0] ?? "";
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) =>
      cell[1]!.replace(/<[^>]+>/g, "").trim()
    )
  );
}

async function world(db: Db) {
  const { app, deps } = testApp(db);
  const ana = await person(app, db, "ana@example.com");
  const bo = await person(app, db, "bo@example.com");
  await createWiki(db, { id: "notes", title: "Notes", ownerAccountId: ana.id });
  await createWiki(db, {
    id: "garden",
    title: "Garden",
    visibility: "public",
    ownerAccountId: ana.id,
  });
  for (
    const [path, markdown] of [["Compost", "# Compost\nCompost feeds [[Worms]]."], [
      "Worms",
      "# Worms\nWorms eat compost and make soil.",
    ]]
  ) {
    await writePage(deps, { wikiId: "notes", path: path!, markdown: markdown! }, {
      source: "test",
    });
  }
  const space = (await createToken(db, {
    accountId: ana.id,
    kind: "space",
    spaceId: "notes",
    name: "bot",
  })).token;
  const account = (await createToken(db, { accountId: ana.id, kind: "account", name: "cli" }))
    .token;
  return { app, deps, ana, bo, space, account };
}

Deno.test("GET /w/:id/-/usage shows MCP searches, reads and confirmed uses by page, client and day", async () => {
  await using db = await freshDb();
  const { app, ana, space, account } = await world(db);
  const mcp = await mcpAs(app, "/mcp/", space, "claude-code/2.0.1 (cli)");
  await callOk(mcp, "search", { query: "compost" });
  await callOk(mcp, "search", { query: "worms" });
  await callOk(mcp, "get_page", { page: "compost" });
  await callOk(mcp, "get_page", { page: "Worms" });
  await callOk(mcp, "get_page", { page: "Worms", offset: 5 }); // a later slice: not another read
  await callOk(mcp, "confirm_use", { page: "Compost", note: "Needs a section on bins" });
  const rest = await app.request("/api/v1/spaces/notes/search?q=soil", {
    headers: { Authorization: `Bearer ${account}`, "User-Agent": "curl/8.5.0" },
  });
  assert.equal(rest.status, 200);

  const res = await ana.b.get("/w/notes/-/usage");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-security-policy") ?? "", /script-src 'self'/);
  const html = await res.text();
  assert.match(html, /<h1>Usage of Notes<\/h1>/);
  assert.deepEqual(tableAfter(html, "Confirmed uses"), [["Page", "Confirmed uses"], [
    "Compost",
    "1",
  ]]);
  assert.deepEqual(tableAfter(html, "Pages read"), [["Page", "Reads"], ["Compost", "1"], [
    "Worms",
    "1",
  ]]);
  assert.deepEqual(tableAfter(html, "By client"), [
    ["Client", "Searches", "Questions", "Page reads", "Confirmed uses"],
    ["claude-code", "2", "0", "2", "1"],
    ["curl", "1", "0", "0", "0"],
  ]);
  assert.match(html, /<strong>3<\/strong> searches/);
  const svg = /<svg role="img" aria-label="([^"]+)"/.exec(html);
  assert.ok(svg, "the chart is an svg image with a label");
  assert.match(svg[1]!, /3 searches, 0 questions, 2 page reads, 1 confirmed use in all/);
  assert.match(html, /<polyline/);
  const perDay = /<summary>Numbers per day<\/summary>[\s\S]*?<\/details>/.exec(html)![0];
  const days = [...perDay.matchAll(/<tr><th scope="row">([\d-]+)<\/th>(.*?)<\/tr>/g)];
  assert.equal(days.length, 1, "one active day in the table");
  assert.equal(days[0]![2]!.replace(/<[^>]+>/g, " ").trim().split(/\s+/).join(","), "3,0,2,1");
  assert.match(html, /Needs a section on bins/);
  assert.match(html, /href="\/w\/notes\/Compost"/);

  await usageWritten(db);
  const rows = await db<{ kind: string; count: number }>`
    SELECT kind, count FROM usage_daily WHERE wiki_id = 'notes' AND client = 'claude-code'
    ORDER BY kind, page_path`;
  assert.deepEqual(rows, [
    { kind: "confirm", count: 1 },
    { kind: "read", count: 1 },
    { kind: "read", count: 1 },
    { kind: "search", count: 2 },
  ], "one counter per day, kind, page and client; each call adds one");
});

Deno.test("public wiki reads over the hub and REST count for their wiki, a failed read not; a period is chosen by link", async () => {
  await using db = await freshDb();
  const { app, deps, ana } = await world(db);
  await writePage(deps, { wikiId: "garden", path: "Roses", markdown: "# Roses\nPrune in March." }, {
    source: "test",
  });
  const hub = new Client({ name: "hub", version: "1.0.0" });
  await hub.connect(
    new StreamableHTTPClientTransport(new URL("http://localhost/mcp/hub/"), {
      fetch: async (url, init) => await app.request(url.toString(), init),
      requestInit: { headers: { "User-Agent": "Cursor/1.7" } },
    }),
  );
  await callOk(hub, "search", { wiki: "garden", query: "roses" });
  await callOk(hub, "get_page", { wiki: "garden", page: "Roses" });
  assert.equal((await app.request("/api/v1/public/wikis/garden/pages/Roses")).status, 200);
  // A read that fails (a revision never kept) and a later slice of the same reading count not.
  const gone = await app.request("/api/v1/public/wikis/garden/pages/Roses?revision=99");
  assert.equal(gone.status, 404);
  await gone.body?.cancel();
  const slice = await app.request("/api/v1/public/wikis/garden/pages/Roses?offset=5");
  assert.equal(slice.status, 200);
  await slice.body?.cancel();

  const html = await (await ana.b.get("/w/garden/-/usage?days=7")).text();
  assert.deepEqual(tableAfter(html, "Pages read"), [["Page", "Reads"], ["Roses", "2"]]);
  assert.deepEqual(tableAfter(html, "By client").slice(1), [["Cursor", "1", "0", "1", "0"], [
    "unnamed",
    "0",
    "0",
    "1",
    "0",
  ]]);
  assert.match(html, /<a href="\/w\/garden\/-\/usage\?days=7" aria-current="page">7 days<\/a>/);
  assert.equal(html.match(/aria-current="page"/g)?.length, 1);
  const fallback = await (await ana.b.get("/w/garden/-/usage?days=12")).text();
  assert.match(fallback, /href="\/w\/garden\/-\/usage\?days=30" aria-current="page"/);
  const perDay = /<summary>Numbers per day<\/summary>/.exec(fallback);
  assert.ok(perDay);
});

/** The rows of the "Searches made" table, as the text of their cells. */
function searchesMade(html: string): string[][] {
  const start = html.indexOf('<h2 id="searches">');
  assert.ok(start >= 0, "no searches heading");
  const section = html.slice(start, html.indexOf("<h2", start + 4));
  return [...section.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].slice(1).map((row) =>
    [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].slice(0, 3).map((cell) =>
      cell[1]!.replace(/<[^>]+>/g, "").trim()
    )
  );
}

Deno.test("searches made in the web app are listed as such for members; type-ahead is not counted", async () => {
  await using db = await freshDb();
  const { app, deps, ana, bo } = await world(db);
  await writePage(deps, { wikiId: "garden", path: "Roses", markdown: "# Roses\nPrune in March." }, {
    source: "test",
  });
  // Type-ahead first: each keystroke would be a search, so none is kept.
  for (const q of ["co", "com", "compo"]) {
    assert.equal((await ana.b.get(`/w/notes/-/suggest?q=${q}`)).status, 200);
    assert.equal((await ana.b.get(`/account/search/suggest?q=${q}`)).status, 200);
  }
  assert.equal((await ana.b.get("/w/notes/-/search?q=compost")).status, 200);
  assert.equal((await ana.b.get("/w/notes/-/search?q=zebras")).status, 200);
  // Across every space of Ana's: counted in each space where it found pages.
  assert.equal((await ana.b.get("/account/search?q=worms")).status, 200);
  // A public wiki's search page, by a stranger and signed out.
  assert.equal((await bo.b.get("/w/garden/-/search?q=prune")).status, 200);
  assert.equal((await app.request("/w/garden/-/search?q=roses")).status, 200);

  const notes = await (await ana.b.get("/w/notes/-/usage")).text();
  assert.deepEqual(searchesMade(notes), [
    ["worms", "2", "Web app"],
    ["zebras", "Nothing", "Web app"],
    ["compost", "2", "Web app"],
  ]);
  assert.deepEqual(tableAfter(notes, "By client").slice(1), [["Web app", "3", "0", "0", "0"]]);
  const garden = await (await ana.b.get("/w/garden/-/usage")).text();
  assert.deepEqual(searchesMade(garden), [["roses", "1", "Web app"], ["prune", "1", "Web app"]]);
  // The queries are for members only: the stranger who searched cannot see them.
  const stranger = await bo.b.get("/w/garden/-/usage");
  assert.equal(stranger.status, 403);
  assert.doesNotMatch(await stranger.text(), /prune|roses/);
});

Deno.test("the usage page is for members: strangers get 404 (private) or 403 (public), signed out 404 (private) or sign in (public)", async () => {
  await using db = await freshDb();
  const { app, bo } = await world(db);
  assert.equal((await bo.b.get("/w/notes/-/usage")).status, 404);
  assert.equal((await bo.b.get("/w/nowhere/-/usage")).status, 404);
  const publicWiki = await bo.b.get("/w/garden/-/usage");
  assert.equal(publicWiki.status, 403);
  assert.match(await publicWiki.text(), /Only members of &quot;garden&quot; can see its usage/);
  // Signed out: a private space is as unknown as a missing one (404, with a sign-in link that
  // comes back here); a public wiki's usage asks to sign in.
  const hidden = await app.request("/w/notes/-/usage");
  assert.equal(hidden.status, 404);
  assert.match(await hidden.text(), /signin\?next=%2Fw%2Fnotes%2F-%2Fusage/);
  const anonymous = await app.request("/w/garden/-/usage");
  assert.equal(anonymous.status, 303);
  assert.equal(
    anonymous.headers.get("location"),
    `/signin?next=${encodeURIComponent("/w/garden/-/usage")}`,
  );
});

Deno.test("an empty period says so and links to the connect page", async () => {
  await using db = await freshDb();
  const { ana } = await world(db);
  const html = await (await ana.b.get("/w/notes/-/usage")).text();
  assert.match(html, /No assistant has used this wiki in the last 30 days/);
  assert.match(html, /href="\/w\/notes\/-\/connect"/);
  assert.match(html, /<svg role="img"/);
  assert.deepEqual(tableAfter(html, "Confirmed uses"), []);
});

Deno.test("recordUsage and recordSearch log and swallow a failure instead of failing the call", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await recordUsage(deps, { wikiId: "no-such-wiki", kind: "read", page: "Home", client: "x" });
  // Counts are written off the request's path: wait for them as the usage page does.
  await usageWritten(db);
  assert.equal(deps.logLines.filter((l) => l.includes("usage not recorded")).length, 1);
  // A search of a wiki deleted meanwhile is skipped (not a failure of the searches beside it);
  // a batch that fails is logged and swallowed.
  await recordSearch(deps, {
    wikis: ["no-such-wiki"],
    query: "q",
    results: [],
    via: "rest",
    client: "x",
  });
  await usageWritten(db);
  assert.equal(deps.logLines.filter((l) => l.includes("usage not recorded")).length, 1);
  await createWiki(db, { id: "w", visibility: "public" });
  await recordSearch(deps, {
    wikis: ["w"],
    query: "q",
    results: [],
    via: "carrier pigeon" as "rest",
    client: "x",
  });
  await usageWritten(db);
  assert.equal(deps.logLines.filter((l) => l.includes("usage not recorded")).length, 2);
  assert.equal((await db`SELECT 1 FROM usage_daily`).length, 0);
  assert.equal((await db`SELECT 1 FROM search_queries`).length, 0);
});

Deno.test("searches made within a second are counted in one statement, each kept with its time", async () => {
  await using db = await freshDb();
  const counted = countingDb(db);
  const deps = testDeps(counted.db);
  await createWiki(db, { id: "w", visibility: "public" });
  await createWiki(db, { id: "v", visibility: "public" });
  const before = new Date();
  for (const query of ["one", "two", "three", "four", "five"]) {
    await recordSearch(deps, {
      wikis: ["w", "v"],
      query,
      results: [{ wiki: "w" }, { wiki: "v" }, { wiki: "w" }],
      via: "mcp",
      client: "claude-code/2.0",
    });
  }
  const writes = () =>
    counted.statements.filter((s) => /INSERT INTO (usage_daily|search_queries)/.test(s));
  // Nothing is written on the searches' path: the batch waits for its second, or the reader.
  assert.equal(writes().length, 0);
  await usageWritten(counted.db);
  assert.equal(writes().length, 1);
  const kept = await db<{ wiki_id: string; n: number; results: number; early: boolean }>`
    SELECT wiki_id, count(*)::int AS n, max(results) AS results,
      bool_or(created_at < ${before}) AS early
    FROM search_queries GROUP BY wiki_id ORDER BY wiki_id`;
  assert.deepEqual(kept, [
    { wiki_id: "v", n: 5, results: 1, early: false },
    { wiki_id: "w", n: 5, results: 2, early: false },
  ]);
  const counters = await db<{ wiki_id: string; client: string; count: number }>`
    SELECT wiki_id, client, count FROM usage_daily ORDER BY wiki_id`;
  assert.deepEqual(counters, [
    { wiki_id: "v", client: "claude-code", count: 5 },
    { wiki_id: "w", client: "claude-code", count: 5 },
  ]);
});

Deno.test("a search counts alike from MCP, REST and both web search pages, each in one statement", async () => {
  await using db = await freshDb();
  const counted = countingDb(db);
  const { app, deps, ana, space, account } = await world(counted.db);
  await writePage(deps, { wikiId: "garden", path: "Heap", markdown: "# Heap\nA compost heap." }, {
    source: "test",
  });
  const mcp = await mcpAs(app, "/mcp/", space, "claude-code/2.0.1 (cli)");
  const writes = () =>
    counted.statements.filter((s) => /INSERT INTO (usage_daily|search_queries)/.test(s));
  const searches: [string, () => Promise<unknown>][] = [
    ["MCP", () => callOk(mcp, "search", { query: "compost" })],
    ["REST", async () => {
      const res = await app.request("/api/v1/spaces/notes/search?q=compost", {
        headers: { Authorization: `Bearer ${account}`, "User-Agent": "curl/8.5.0" },
      });
      assert.equal(res.status, 200);
    }],
    ["wiki search page", async () => {
      assert.equal((await ana.b.get("/w/notes/-/search?q=compost")).status, 200);
    }],
    // Across Ana's spaces: counted in both, since both hold a page on compost.
    ["search across spaces", async () => {
      assert.equal((await ana.b.get("/account/search?q=compost")).status, 200);
    }],
  ];
  for (const [surface, search] of searches) {
    counted.statements.length = 0;
    await search();
    // Written with its batch (within a second, or when the usage page reads).
    await usageWritten(counted.db);
    assert.equal(writes().length, 1, `${surface}: ${writes().join("\n---\n")}`);
  }
  await usageWritten(counted.db);

  const kept = await db<
    { wiki_id: string; query: string; results: number; via: string; client: string }
  >`
    SELECT wiki_id, query, results, via, client FROM search_queries ORDER BY wiki_id DESC, id`;
  assert.deepEqual(
    kept,
    [
      { wiki_id: "notes", query: "compost", results: 2, via: "mcp", client: "claude-code" },
      { wiki_id: "notes", query: "compost", results: 2, via: "rest", client: "curl" },
      { wiki_id: "notes", query: "compost", results: 2, via: "web", client: "Web app" },
      { wiki_id: "notes", query: "compost", results: 2, via: "web", client: "Web app" },
      { wiki_id: "garden", query: "compost", results: 1, via: "web", client: "Web app" },
    ],
  );
  const counters = await db<
    { wiki_id: string; kind: string; page_path: string | null; client: string; count: number }
  >`SELECT wiki_id, kind, page_path, client, count FROM usage_daily ORDER BY wiki_id, client`;
  assert.deepEqual(counters, [
    { wiki_id: "garden", kind: "search", page_path: null, client: "Web app", count: 1 },
    { wiki_id: "notes", kind: "search", page_path: null, client: "Web app", count: 2 },
    { wiki_id: "notes", kind: "search", page_path: null, client: "claude-code", count: 1 },
    { wiki_id: "notes", kind: "search", page_path: null, client: "curl", count: 1 },
  ]);
});

Deno.test("migration 0009 counts the confirmed uses recorded before it, by day, page and client", async () => {
  await using db = await freshDb({ migrate: false });
  const all = await readMigrations();
  await migrate(db, all.filter((m) => m.version < 9));
  await createWiki(db, { id: "w", visibility: "public" });
  await db`
    INSERT INTO page_uses (wiki_id, page_id, page_path, revision, client_name, created_at)
    VALUES ('w', 7, 'A', 1, 'claude-code/1.0 (cli)', '2025-01-02T10:00:00Z'),
           ('w', 7, 'A', 1, 'claude-code/1.1', '2025-01-02T23:00:00Z'),
           ('w', 7, 'A', 2, 'Claude', '2025-01-02T12:00:00Z'),
           ('w', 8, 'B', 1, NULL, '2025-01-03T00:30:00Z')`;
  await migrate(db, all);
  const rows = await db<{ day: string; page_id: number; client: string; count: number }>`
    SELECT to_char(day, 'YYYY-MM-DD') AS day, page_id, client, count FROM usage_daily
    WHERE kind = 'confirm' ORDER BY day, page_id, client`;
  assert.deepEqual(rows, [
    { day: "2025-01-02", page_id: 7, client: "Claude", count: 1 },
    { day: "2025-01-02", page_id: 7, client: "claude-code", count: 2 },
    { day: "2025-01-03", page_id: 8, client: "", count: 1 },
  ]);
  for (const client of ["claude-code/9 (x)", "Claude", null]) {
    assert.ok(rows.some((r) => r.client === usageClient(client)), "the same rule as usageClient");
  }
});

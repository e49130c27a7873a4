import assert from "node:assert/strict";
import type { Hono } from "hono";
import { createToken } from "../src/auth/tokens.ts";
import type { Db } from "../src/db/db.ts";
import type { Deps } from "../src/deps.ts";
import { recordAsk } from "../src/usage/record_ask.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testDeps } from "./helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";
import { html, person, seedPages, spaceApp } from "./space_helpers.ts";

/** A public wiki of Ana's on compost that links to a page nobody wrote, and Ana's tokens. */
async function world(db: Db) {
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, {
    id: "notes",
    title: "Notes",
    visibility: "public",
    ownerAccountId: ana.id,
  });
  await seedPages(deps, "notes", {
    "Compost": "# Compost\n\nTurn the compost heap every two weeks. Keep it moist. " +
      "Worms help, see [[Worm bins]].\n",
    "Soil": "# Soil\n\n## Clay\n\nClay soil drains slowly and holds water; dig compost in.\n",
  });
  const token = (await createToken(db, { accountId: ana.id, kind: "account", name: "cli" }))
    .token;
  return { app, deps, ana, token };
}

/** Asks over REST, as JSON or as an event stream. */
async function restAsk(app: Hono, token: string, question: string, stream = false) {
  const res = await app.request("/api/v1/spaces/notes/ask", {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      "User-Agent": "curl/8.5.0",
      ...(stream ? { Accept: "text/event-stream" } : {}),
    },
    body: JSON.stringify({ question }),
  });
  assert.equal(res.status, 200);
  return await res.text();
}

/** The part of a page from the heading with this id to the next `<h2`. */
function sectionOf(page: string, id: string): string {
  const start = page.indexOf(`<h2 id="${id}">`);
  assert.ok(start >= 0, `no section "${id}"`);
  const rest = page.slice(start + 5);
  return rest.slice(0, rest.search(/<h2|$/));
}

Deno.test("asks over MCP, REST and the Ask page are counted and listed, and the unanswered ones grouped as coverage gaps with 'write this page'", async () => {
  await using db = await freshDb();
  const { app, ana, token } = await world(db);
  const mcp = await mcpClient(app, "/mcp/", token);
  const viaMcp = await callOk<{ coverage: string }>(mcp, "ask", {
    space: "notes",
    question: "How do I rotate the API keys?",
  });
  await mcp.close();
  assert.notEqual(viaMcp.coverage, "supported");
  await restAsk(app, token, "When should API keys be rotated?");
  const streamed = await restAsk(app, token, "Do worm bins help the compost?", true);
  assert.match(streamed, /event: answer/);
  const page = await html(
    await ana.get("/w/notes/-/ask?q=How+often+do+I+turn+the+compost%3F"),
    200,
  );
  assert.match(page, /class="coverage supported"/);

  const counted = await db<{ client: string; count: number }>`
    SELECT client, count FROM usage_daily WHERE kind = 'ask' ORDER BY client`;
  assert.deepEqual(counted, [
    { client: "", count: 1 }, // the MCP client sent no User-Agent
    { client: "Web app", count: 1 },
    { client: "curl", count: 2 },
  ]);

  const usage = await html(await ana.get("/w/notes/-/usage"), 200);
  assert.match(usage, /<strong>4<\/strong> questions/);
  const questions = sectionOf(usage, "questions");
  for (
    const [q, via] of [
      ["How do I rotate the API keys?", "MCP<"],
      ["When should API keys be rotated?", "REST \\(curl\\)"],
      ["Do worm bins help the compost?", "REST \\(curl\\)"],
      ["How often do I turn the compost?", "Ask page"],
    ]
  ) {
    assert.match(
      questions,
      new RegExp(
        `<td><a href="[^"]+">${q!.replace("?", "\\?")}</a></td><td[^>]*>[^<]+</td><td>${via}`,
      ),
    );
  }
  const gaps = sectionOf(usage, "gaps");
  // The two questions about API keys are one gap, asked twice, with the editor's link titled.
  assert.match(gaps, /<strong>Rotate API keys<\/strong> <span class="hint">asked 2 times/);
  assert.match(gaps, /href="\/w\/notes\/-\/new\?path=Rotate\+API\+keys">Write this page<\/a>/);
  assert.match(
    gaps,
    /<li><a href="\/w\/notes\/-\/ask\?q=When\+should\+API\+keys\+be\+rotated%3F">When should API keys be rotated\?<\/a><\/li><li><a [^>]+>How do I rotate the API keys\?<\/a><\/li>/,
  );
  // The question a linked, unwritten page would answer is that page's gap.
  assert.match(gaps, /<strong>Worm bins<\/strong>[^]*already linked from other pages/);
  assert.match(gaps, /href="\/w\/notes\/-\/new\?path=Worm\+bins">Write this page<\/a>/);
  // The answered question is asked, not a gap.
  assert.doesNotMatch(gaps, /turn the compost/);
  const editor = await html(await ana.get("/w/notes/-/new?path=Rotate+API+keys"), 200);
  assert.match(editor, /value="Rotate API keys"/);
});

Deno.test("only the space's members see its questions: not a visitor of the public wiki who asked one", async () => {
  await using db = await freshDb();
  const { app } = await world(db);
  const bo = await person(app, db, "bo@example.com", "Bo");
  await html(await bo.get("/w/notes/-/ask?q=Is+the+secret+launch+date+set%3F"), 200);
  const [row] = await db<
    { via: string; question: string }
  >`SELECT via, question FROM ask_questions`;
  assert.deepEqual(row, { via: "web", question: "Is the secret launch date set?" });
  const usage = await bo.get("/w/notes/-/usage");
  assert.equal(usage.status, 403);
  assert.doesNotMatch(await usage.text(), /secret launch/);
  const anonymous = await app.request("/w/notes/-/usage");
  assert.equal(anonymous.status, 303);
});

Deno.test("GET /w/<id>/-/ask/stream streams the answer as the REST API does, within the space's access", async () => {
  await using db = await freshDb();
  const { app, ana } = await world(db);
  const res = await ana.get("/w/notes/-/ask/stream?q=How+often+do+I+turn+the+compost%3F");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
  const body = await res.text();
  const events = [...body.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
  assert.deepEqual(events.slice(0, 2), ["status", "status"]);
  assert.ok(events.includes("delta"));
  assert.equal(events.at(-1), "answer");
  const answer = JSON.parse(/event: answer\ndata: (.*)/.exec(body)![1]!);
  assert.equal(answer.citations[0].page, "Compost");
  assert.match(answer.citations[0].url, /\/w\/notes\/Compost/);
  // The answer as the page renders it, for ask.js to put in place: citations linked to their
  // sections on this site, the coverage in words.
  assert.match(answer.html, /<section aria-labelledby="answer-heading" class="answer">/);
  assert.match(answer.html, /<a href="\/w\/notes\/Compost[^"]*">/);
  assert.match(answer.html, /Answered from the wiki|Partly answered/);

  const empty = await (await ana.get("/w/notes/-/ask/stream?q=")).text();
  assert.match(empty, /event: error\ndata: .*"code":"bad_request"/);

  await createWiki(db, { id: "diary", title: "Diary", ownerAccountId: ana.id });
  const bo = await person(app, db, "bo@example.com", "Bo");
  assert.equal((await bo.get("/w/diary/-/ask/stream?q=anything")).status, 404);
});

Deno.test("recordAsk prunes questions and searches past their retention, by the one rule searches prune by, and never fails the answer", async () => {
  await using db = await freshDb();
  await world(db);
  const deps = testDeps(db);
  await db`
    INSERT INTO ask_questions (wiki_id, question, coverage, gap_key, gap_title, via, client, created_at)
    VALUES ('notes', 'An old question', 'unsupported', 'terms:old', 'Old', 'mcp', '',
      now() - interval '91 days')`;
  await db`
    INSERT INTO search_queries (wiki_id, query, results, via, client, created_at)
    VALUES ('notes', 'an old search', 0, 'rest', '', now() - interval '91 days'),
      ('notes', 'a recent search', 1, 'rest', '', now() - interval '89 days')`;
  const answer = {
    question: "A new question",
    answer: "The wiki has nothing on this.",
    citations: [],
    frontier: [],
    coverage: "unsupported" as const,
    mode: "extractive" as const,
  };
  const random = Math.random;
  Math.random = () => 0;
  try {
    await recordAsk(deps, { wikiId: "notes", answer, absent: [], unwritten: [] }, {
      via: "rest",
      client: "curl/8",
    });
  } finally {
    Math.random = random;
  }
  const rows = await db<{ question: string }>`SELECT question FROM ask_questions`;
  assert.deepEqual(rows, [{ question: "A new question" }]);
  const searches = await db<{ query: string }>`SELECT query FROM search_queries`;
  assert.deepEqual(searches, [{ query: "a recent search" }]);

  const broken = {
    ...deps,
    db: (() => Promise.reject(new Error("down"))) as unknown as Deps["db"],
  };
  await recordAsk(broken, { wikiId: "notes", answer, absent: [], unwritten: [] }, {
    via: "rest",
    client: null,
  });
  assert.ok(deps.logLines.some((l) => l.includes("question not recorded")));
});

Deno.test("searches over MCP and REST are listed with the pages they found; a later page of the same results is not listed again", async () => {
  await using db = await freshDb();
  const { app, ana, token } = await world(db);
  const mcp = await mcpClient(app, "/mcp/", token);
  const first = await callOk<{ next_cursor?: string }>(mcp, "search", {
    space: "notes",
    query: "compost",
    limit: 1,
  });
  assert.ok(first.next_cursor, "more than one page of results");
  await callOk(mcp, "search", {
    space: "notes",
    query: "compost",
    limit: 1,
    cursor: first.next_cursor,
  });
  await callOk(mcp, "search", { space: "notes", query: "zebra crossings" });
  await mcp.close();
  const rest = await app.request("/api/v1/spaces/notes/search?q=clay", {
    headers: { Authorization: `Bearer ${token}`, "User-Agent": "curl/8.5.0" },
  });
  assert.equal(rest.status, 200);

  const usage = await html(await ana.get("/w/notes/-/usage"), 200);
  assert.match(usage, /<strong>4<\/strong> searches/, "every call counts");
  const rows = [
    ...sectionOf(usage, "searches").matchAll(
      /<tr><td>([^<]*)<\/td><td>(.*?)<\/td><td>([^<]*)<\/td>/g,
    ),
  ]
    .map((m) => [m[1], /^\d+$/.test(m[2]!) ? "some" : m[2]!.replace(/<[^>]+>/g, ""), m[3]]);
  assert.deepEqual(rows, [
    ["clay", "some", "REST (curl)"],
    ["zebra crossings", "Nothing", "MCP"],
    ["compost", "some", "MCP"],
  ]);
});

Deno.test("a reloaded ask page records its question once; the same question asked by others shows as 'asked N times'", async () => {
  await using db = await freshDb();
  const { app, ana, token } = await world(db);
  const bo = await person(app, db, "bo@example.com", "Bo");
  const url = "/w/notes/-/ask?q=How+often+do+I+turn+the+compost%3F";
  // Ana reloads the page three times; the streamed form is the same asking.
  for (let i = 0; i < 3; i++) await html(await ana.get(url), 200);
  const stream = await ana.get(
    "/w/notes/-/ask/stream?q=How%20often%20do%20I%20turn%20the%20compost%3F",
  );
  await stream.text();
  // A REST client retries the same call.
  await restAsk(app, token, "How often do I turn the compost?");
  await restAsk(app, token, "how often  do I turn the compost?");
  // Bo asks it too, in his own session.
  await html(await bo.get(url), 200);

  const rows = await db<{ via: string }>`SELECT via FROM ask_questions ORDER BY id`;
  assert.deepEqual(rows.map((r) => r.via), ["web", "rest", "web"], "once per asking");
  const [counted] = await db<{ n: number }>`
    SELECT sum(count)::int AS n FROM usage_daily WHERE kind = 'ask'`;
  assert.equal(counted!.n, 3);
  const usage = await html(await ana.get("/w/notes/-/usage"), 200);
  const listed = sectionOf(usage, "questions");
  assert.equal(listed.match(/How often do I turn the compost\?<\/a>/gi)?.length, 1);
  assert.match(listed, /turn the compost\?<\/a><span class="hint"> asked 3 times<\/span>/);
});

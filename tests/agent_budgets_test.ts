import assert from "node:assert/strict";
import { seedDocs } from "../src/wikis/seed_docs.ts";
import { estimateTokens } from "../src/kit/mcp/token_budget.ts";
import { countingDb, freshDb, testApp } from "./helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";

// Response budgets over the docs wiki, and what a client can discover: server cards, skills.

async function docsApp() {
  const db = await freshDb();
  const counted = countingDb(db);
  const { app, deps } = testApp(counted.db, { RATE_LIMIT_ANON_PER_MINUTE: "100000" });
  await seedDocs(deps);
  return {
    app,
    statements: counted.statements,
    async [Symbol.asyncDispose]() {
      await db[Symbol.asyncDispose]();
    },
  };
}

type Budgeted = { budget?: { max_tokens: number; estimated_tokens: number; cut: string | null } };

/** The tool's whole text result, in estimated tokens. */
async function textTokens(
  client: Awaited<ReturnType<typeof mcpClient>>,
  name: string,
  args: Record<string, unknown>,
) {
  const result = await client.callTool({ name, arguments: args });
  assert.ok(!result.isError, JSON.stringify(result.content));
  const text = (result.content as { text: string }[]).map((c) => c.text).join("");
  return {
    tokens: Math.max(
      estimateTokens(text),
      estimateTokens(JSON.stringify(result.structuredContent)),
    ),
    out: result.structuredContent as Record<string, unknown> & Budgeted,
  };
}

Deno.test("search, get_page and ask fit max_tokens over the docs wiki and say what was cut", async () => {
  await using w = await docsApp();
  const client = await mcpClient(w.app, "/mcp/w/docs/");

  const wide = await textTokens(client, "search", { query: "token", limit: 10 });
  const search = await textTokens(client, "search", { query: "token", limit: 10, max_tokens: 300 });
  assert.ok(wide.tokens > 300, `the unbounded search is larger (${wide.tokens})`);
  assert.ok(search.tokens <= 300, `search fits: ${search.tokens}`);
  assert.match(search.out.budget!.cut!, /left out: call search again with cursor = next_cursor/);
  const kept = (search.out.results as unknown[]).length;
  const rest = await callOk<{ results: { page: string }[] }>(client, "search", {
    query: "token",
    limit: 10,
    cursor: search.out.next_cursor,
  });
  const first = (wide.out.results as { page: string }[]).map((r) => r.page);
  assert.equal(rest.results[0]!.page, first[kept], "the cursor goes on where the cut was");

  const full = await textTokens(client, "get_page", { page: "Tools" });
  const page = await textTokens(client, "get_page", { page: "Tools", max_tokens: 400 });
  assert.ok(full.tokens > 400, `the whole page is larger (${full.tokens})`);
  assert.ok(page.tokens <= 400, `get_page fits: ${page.tokens}`);
  assert.equal(page.out.truncated, true);
  assert.match(page.out.budget!.cut!, new RegExp(`offset = ${page.out.next_offset}`));
  const next = await callOk<{ offset: number }>(client, "get_page", {
    page: "Tools",
    offset: page.out.next_offset,
    max_tokens: 400,
  });
  assert.equal(next.offset, page.out.next_offset);

  const answerFull = await textTokens(client, "ask", { question: "How do I create a token?" });
  const answer = await textTokens(client, "ask", {
    question: "How do I create a token?",
    max_tokens: 250,
  });
  assert.ok(answerFull.tokens > 250, `the whole answer is larger (${answerFull.tokens})`);
  assert.ok(answer.tokens <= 250, `ask fits: ${answer.tokens}`);
  assert.match(answer.out.budget!.cut!, /call ask again with a larger max_tokens/);
});

Deno.test("get_page cut to fit max_tokens reads the page as often as a whole read does: once", async () => {
  await using w = await docsApp();
  const client = await mcpClient(w.app, "/mcp/w/docs/");
  // The statements that read a page, its links or its source.
  const reads = () => w.statements.filter((s) => /\bFROM (pages|links|git_sources)\b/.test(s));
  w.statements.length = 0;
  await callOk(client, "get_page", { page: "Tools" });
  const whole = reads();
  w.statements.length = 0;
  const cut = await callOk<{ truncated: boolean; budget: { cut: string } }>(client, "get_page", {
    page: "Tools",
    max_tokens: 400,
  });
  assert.equal(cut.truncated, true);
  assert.match(cut.budget.cut, /the page goes on/);
  assert.deepEqual(reads(), whole);
  assert.equal(whole.filter((s) => /SELECT \* FROM pages/.test(s)).length, 1);
});

Deno.test("max_tokens below 200 is refused with a clear error", async () => {
  await using w = await docsApp();
  const client = await mcpClient(w.app, "/mcp/w/docs/");
  const result = await client.callTool({
    name: "search",
    arguments: { query: "token", max_tokens: 10 },
  });
  assert.equal(result.isError, true);
});

Deno.test("resources/list offers the skills and the server card; resources/read returns them", async () => {
  await using w = await docsApp();
  for (const path of ["/mcp/hub/", "/mcp/w/docs/"]) {
    const client = await mcpClient(w.app, path);
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    assert.ok(uris.includes("skill://find-and-cite/SKILL.md"), path);
    assert.ok(uris.includes("skill://capture-conversation/SKILL.md"), path);
    assert.ok(uris.includes("skill://index.json"), path);
    const card = uris.find((u) => u.endsWith("/server-card"))!;
    assert.ok(card, `${path} lists its server card`);
    const skill = await client.readResource({ uri: "skill://capture-conversation/SKILL.md" });
    const text = (skill.contents[0] as { text: string }).text;
    assert.match(text, /^---\nname: capture-conversation\ndescription: /);
    assert.match(text, /propose_edit/);
    const read = await client.readResource({ uri: card });
    const json = JSON.parse((read.contents[0] as { text: string }).text);
    assert.equal(json.remotes[0].url, `http://wiki.test${path}`);
  }
});

Deno.test("server cards are served where SEP-2127 reserves them, with the catalog", async () => {
  await using w = await docsApp();
  const catalog = await w.app.request("/.well-known/mcp/catalog.json");
  assert.equal(catalog.status, 200);
  const entries = (await catalog.json()).entries as { url: string; type: string }[];
  assert.ok(entries.every((e) => e.type === "application/mcp-server-card+json"));
  for (const url of entries.map((e) => e.url)) {
    const res = await w.app.request(url);
    assert.equal(res.status, 200, url);
    assert.equal(res.headers.get("content-type"), "application/mcp-server-card+json");
    const card = await res.json();
    assert.equal(
      card.$schema,
      "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json",
    );
    assert.match(card.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    assert.equal(card.remotes[0].type, "streamable-http");
  }
  const alias = await w.app.request("/.well-known/mcp/server-card.json");
  assert.equal((await alias.json()).remotes[0].url, "http://wiki.test/mcp/hub/");
  const wiki = await (await w.app.request("/mcp/w/docs/server-card")).json();
  assert.equal(wiki.remotes[0].url, "http://wiki.test/mcp/w/docs/");
});

Deno.test("REST GET of a page looks the page up once, as MCP get_page does", async () => {
  await using w = await docsApp();
  w.statements.length = 0;
  const res = await w.app.request("/api/v1/public/wikis/docs/pages/Tools");
  assert.equal(res.status, 200);
  await res.body?.cancel();
  assert.equal(w.statements.filter((s) => /SELECT \* FROM pages/.test(s)).length, 1);
});

import assert from "node:assert/strict";
import type { Hono } from "hono";
import type { Answer } from "../src/ask/ask_schema.ts";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import type { SearchOutput } from "../src/search/search_wikis.ts";
import { seedDocs } from "../src/wikis/seed_docs.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { startFakeOpenAi } from "./fake_openai.ts";
import { freshDb, testApp } from "./helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";
import { ask } from "./docs_wiki.ts";

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

/** Every citation's quote is its page's markdown between its offsets, byte for byte. */
async function assertVerbatim(db: Db, answer: Answer) {
  for (const c of answer.citations) {
    const [page] = await db<
      { markdown: string }
    >`SELECT markdown FROM pages WHERE path = ${c.page}`;
    assert.equal(page!.markdown.slice(c.start, c.end), c.quote, `quote of ${c.page}`);
  }
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

Deno.test("ask on the guide answers from the sentences that address the question, nothing from pages that share one word", async () => {
  await using db = await freshDb();
  const app = await guideApp(db);
  const port = await ask(app, "docs", "Which port do I open?");
  assert.match(
    port.answer,
    /^The service listens on port `8000`: open `http:\/\/localhost:8000`\. To listen on another port, set `PORT` .*\[1\]/,
  );
  // "Open Cline's MCP settings" and "Sign in and open /account/tokens" share only "open".
  for (const c of port.citations) assert.match(c.quote, /port/i, c.quote);
  await assertVerbatim(db, port);

  // The page's own summary ("This page explains … what happens when you send too many
  // requests") matches every word and answers nothing.
  // The answer keeps to the Tokens page (one section per answer, and the rate-limit section
  // beside it), not a 429 row of another page.
  const many = await ask(app, "docs", "What happens when I send too many requests?");
  assert.ok(
    many.citations.some((c) => c.section === "Tokens > Rate limits"),
    JSON.stringify(many.citations),
  );
  for (const c of many.citations) assert.doesNotMatch(c.quote, /^This page/, c.quote);
  await assertVerbatim(db, many);

  // Over MCP, the same answer.
  const client = await mcpClient(app, "/mcp/w/docs/");
  try {
    const answer = await callOk<Answer>(client, "ask", { question: "Which port do I open?" });
    assert.equal(answer.answer, port.answer);
  } finally {
    await client.close();
  }
});

Deno.test("ask on the guide: a question naming a topic, a section or an amount is answered from there, not from a list of names or a link example; an announcement brings what it announces", async () => {
  await using db = await freshDb();
  const app = await guideApp(db);
  const first = (a: Answer) => `${a.citations[0]?.page} › ${a.citations[0]?.section}`;

  // "How do tokens work?" names the Tokens page: its lead says what tokens are. The
  // wikilink example "`[[tokens]]` and `[[guides/getting_started]]` work" is not about tokens.
  const tokens = await ask(app, "docs", "How do tokens work?");
  assert.equal(first(tokens), "Tokens › Tokens", tokens.answer);
  assert.match(tokens.citations[0]!.quote, /^Private spaces do: an account token, a space token/);
  for (const c of tokens.citations) assert.equal(c.page, "Tokens", c.quote);
  assert.doesNotMatch(tokens.answer, /path rules/);
  await assertVerbatim(db, tokens);

  // The operator commands row "`create-space`, `create-token`, … | See [[Tokens]]" holds every
  // word of the question and says nothing.
  const create = await ask(app, "docs", "How do I create a space token?");
  assert.equal(
    first(create),
    "Tokens › Tokens > Making and revoking tokens in the web app",
    create.answer,
  );
  for (const c of create.citations) assert.doesNotMatch(c.quote, /`create-space`/, c.quote);
  await assertVerbatim(db, create);

  // "the ask tool" names the section "ask: get a cited answer".
  const tool = await ask(app, "docs", "What does the ask tool return?");
  assert.equal(first(tool), "Tools › Tools > ask: get a cited answer", tool.answer);
  assert.match(tool.answer, /^Returns a short answer written from the wiki's pages/);
  await assertVerbatim(db, tool);

  // "How long" asks for an amount: "Which events: Just the push event." has none.
  const kept = await ask(app, "docs", "How long are usage events kept?");
  assert.match(kept.answer, /Questions and searches are kept 90 days/);
  assert.equal(
    first(kept),
    "Connecting an assistant › Connecting an assistant > Seeing what assistants use",
  );
  for (const c of kept.citations) assert.notEqual(c.page, "Git sync", c.quote);
  await assertVerbatim(db, kept);

  // A sentence ending in a colon brings what it announces; a three-word one, the next sentence.
  const title = await ask(app, "docs", "How does a page get its title?");
  assert.match(
    title.answer,
    // (A short section is its answer whole: the announcement, the list and the example.)
    /^The title is taken from the first of these that exists:\n\n1\. A `title:` field in YAML front matter at the very top of the file\.\n2\. The first heading/,
  );
  await assertVerbatim(db, title);
  const confirm = await ask(app, "docs", "What does confirm_use do?");
  assert.match(
    confirm.answer,
    // (One paragraph, one quote, and the list of parameters it announces.)
    /^Private endpoint only\. Call it after an answer that relied on a page\. Parameters: \[1\]\n\n- `space`/,
  );
  await assertVerbatim(db, confirm);

  // "What is a space?" is answered by the sentence that says what a space is.
  const space = await ask(app, "docs", "What is a space?");
  assert.equal(first(space), "Home › Home > What the service does", space.answer);
  assert.match(space.citations[0]!.quote, /^A \*space\* is a wiki that belongs to/);
  await assertVerbatim(db, space);
});

Deno.test("ask on the guide: no answer ends on a colon whose continuation is left out, and a long section's later window is cut at whole sentences", async () => {
  await using db = await freshDb();
  const app = await guideApp(db);
  // "No token is needed for public wikis:" announced a code block the question does not ask for.
  const search = await ask(app, "docs", "How do I search a public wiki over REST?");
  assert.ok(search.citations.length > 0);
  assert.doesNotMatch(search.answer, /:\s*\[\d+\]\s*$/, search.answer);
  await assertVerbatim(db, search);

  // "Writing pages › Editing pages in the web app" is long enough to be split; its second
  // window began "and Enter or Tab. - **Saving**: …", which read as one sentence of two list
  // items, starting in lower case.
  const edit = await ask(app, "docs", "How do I avoid overwriting someone else's edit?");
  assert.match(edit.citations[0]!.quote, /If-Match/);
  for (const c of edit.citations) {
    assert.doesNotMatch(c.quote, /\n\s*[-*] /, `one list item per quote: ${c.quote}`);
    assert.match(c.quote, /^(?:[-*] )?(?:\*\*)?[A-Z`]/, `a whole sentence: ${c.quote}`);
  }
  for (const sentence of edit.answer.split(/\s*\[\d+\]\s*/).filter(Boolean)) {
    // (An answer is markdown: a list item keeps its marker.)
    assert.match(sentence.replace(/^(?:[-*]|\d+\.) /, ""), /^[A-Z]/, sentence);
  }
  await assertVerbatim(db, edit);
});

Deno.test("over MCP, a search's text form marks only the matched words and alters nothing", async () => {
  await using db = await freshDb();
  const app = await guideApp(db);
  const client = await mcpClient(app, "/mcp/w/docs/");
  try {
    const result = await client.callTool({
      name: "search",
      arguments: { query: "connected apps", limit: 3 },
    });
    const text = (result.content as { text: string }[]).map((c) => c.text).join("\n");
    // Markdown bold is gone from the snippet, never doubled by the markers; placeholders stay.
    assert.doesNotMatch(text, /\*\*/);
    assert.match(text, /\/mcp\/w\/<id>\//);
    assert.match(text, /Account → ⟦Connected⟧ ⟦apps⟧ \(\/account\/⟦apps⟧\)/);
    // A marker holds one matched word, never the punctuation or path around it.
    for (const [, marked] of text.matchAll(/⟦([^⟧]*)⟧/g)) {
      assert.match(marked!, /^[\p{L}\p{N}]+$/u, marked);
    }
  } finally {
    await client.close();
  }
});

const OPS = {
  Falcon: "# Falcon\n\nFalcon is the deploy tool of the platform team. " +
    "Rollbacks are done with `falcon rollback --to <sha>`. Deploys need a green build.",
  Billing: "# Billing\n\nInvoices are sent on the first day of each month.",
};

Deno.test("with a model: its 'not covered' is checked against the passages, and a quote not in them is dropped", async () => {
  const fake = startFakeOpenAi();
  try {
    await using db = await freshDb();
    const { app, deps } = testApp(db, { LLM_MODEL: "fake-chat", LLM_BASE_URL: fake.url });
    await createWiki(db, { id: "ops", visibility: "public" });
    for (const [path, markdown] of Object.entries(OPS)) {
      await writePage(deps, { wikiId: "ops", path, markdown }, { source: "test" });
    }
    // The model says "not covered" and cites nothing, while a passage plainly answers: the
    // extractive answer takes its place, flagged.
    fake.chat(() =>
      JSON.stringify({ answer: "The passages do not say.", citations: [], covered: false })
    );
    const rollback = await ask(app, "ops", "How do I roll back Falcon?");
    assert.equal(fake.chats.length, 1);
    assert.equal(rollback.mode, "extractive");
    assert.equal(rollback.coverage, "partial");
    assert.match(rollback.answer, /falcon rollback --to <sha>/);
    assert.equal(rollback.citations[0]!.page, "Falcon");
    const note = rollback.frontier.find((f) => f.kind === "llm_fallback");
    assert.match(note!.note, /said the passages do not answer this/);
    await assertVerbatim(db, rollback);

    // On weak evidence the model's "not covered" stands.
    const vendors = await ask(app, "ops", "Which vendors do we use for billing?");
    assert.equal(fake.chats.length, 2, "the model sees weak retrievals too");
    assert.equal(vendors.mode, "llm");
    assert.equal(vendors.coverage, "unsupported");
    assert.equal(vendors.answer, "The passages do not say.");

    // A quote that is not in the passage it names is dropped and reported; the answer keeps
    // the verified one.
    fake.chat(({ messages }) => {
      const n = Number(/\[(\d+)\] \(page "Falcon"/.exec(messages[1]!.content)![1]);
      return JSON.stringify({
        answer: `Run falcon rollback [${n}]. Then restart the pods [${n}].`,
        citations: [
          { passage: n, quote: "Rollbacks are done with `falcon rollback --to <sha>`." },
          { passage: n, quote: "Restart the pods after a rollback." },
        ],
        covered: true,
      });
    });
    const checked = await ask(app, "ops", "How do I roll back Falcon?");
    assert.equal(checked.mode, "llm");
    assert.equal(checked.coverage, "supported");
    assert.deepEqual(checked.citations.map((c) => c.quote), [
      "Rollbacks are done with `falcon rollback --to <sha>`.",
    ]);
    const dropped = checked.frontier.filter((f) => f.kind === "citation_dropped");
    assert.equal(dropped.length, 1);
    assert.match(dropped[0]!.note, /Restart the pods/);
    await assertVerbatim(db, checked);
  } finally {
    await fake.close();
  }
});

Deno.test("ask on the guide: a question naming a client is answered from that client's section, not from parameters that share its name", async () => {
  await using db = await freshDb();
  const app = await guideApp(db);
  // Before: four unrelated sentences (a Git sync token row, the `search` tool's `space`, `limit`
  // and `cursor` parameters), though the guide has a Cursor section.
  const cursor = await ask(app, "docs", "How do I connect Cursor to a private space?");
  const first = cursor.citations[0]!;
  assert.equal(first.page, "Connecting an assistant", cursor.answer);
  assert.match(first.section ?? "", /> Cursor$/, cursor.answer);
  assert.match(first.url, /#cursor$/);
  assert.match(cursor.answer, /\.cursor\/mcp\.json/);
  for (const c of cursor.citations) {
    assert.doesNotMatch(c.quote, /`(?:cursor|limit|space)`/, c.quote);
    assert.notEqual(c.page, "Git sync", c.quote);
  }
  await assertVerbatim(db, cursor);
});

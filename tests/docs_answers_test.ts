import assert from "node:assert/strict";
import type { Hono } from "hono";
import type { Answer } from "../src/ask/ask_schema.ts";
import type { Deps } from "../src/deps.ts";
import { writePage } from "../src/pages/write_page.ts";
import type { SearchOutput } from "../src/search/search_wikis.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";
import { parses } from "../src/ask/question.ts";

// Answers from documentation-shaped pages (issue #28): reference sections headed by an option's
// name in inline code, tables of options, numbered runbooks, code blocks. Through REST, as an
// assistant asks.

async function ask(app: Hono, wiki: string, question: string): Promise<Answer> {
  const res = await app.request(`/api/v1/public/wikis/${wiki}/ask`, {
    method: "POST",
    body: JSON.stringify({ question }),
    headers: { "Content-Type": "application/json" },
  });
  assert.equal(res.status, 200);
  return await res.json();
}

async function search(app: Hono, wiki: string, q: string): Promise<SearchOutput["results"]> {
  const res = await app.request(
    `/api/v1/public/wikis/${wiki}/search?q=${encodeURIComponent(q)}&limit=10`,
  );
  assert.equal(res.status, 200);
  return (await res.json()).results;
}

async function docsWiki(pages: Record<string, string>) {
  const db = await freshDb();
  const { app, deps } = testApp(db, { RATE_LIMIT_ANON_PER_MINUTE: "100000" });
  await createWiki(db, { id: "docs", visibility: "public" });
  for (const [path, markdown] of Object.entries(pages)) {
    await writePage(deps as Deps, { wikiId: "docs", path, markdown }, { source: "test" });
  }
  return { db, app };
}

const PING = "# Ping\n\nThe ping endpoint answers health checks.\n\n" +
  "## Configuration Options\n\n" +
  "### `terminatingStatusCode`\n\n" +
  "During the period in which Traefik is gracefully shutting down, the ping handler returns " +
  "a 503 status code by default. If terminatingStatusCode is set, that status code is returned " +
  "instead.\n\n" +
  "### `entryPoint`\n\nThe entry point the ping handler is served on.\n";

Deno.test("a heading made of inline code is found, cited and linked by its name", async () => {
  const { db, app } = await docsWiki({ "ping": PING, "other": "# Other\n\nNothing here." });
  await using _db = db;
  const found = await search(app, "docs", "terminatingStatusCode");
  assert.equal(found[0]!.page, "ping");
  assert.equal(found[0]!.section, "Ping > Configuration Options > `terminatingStatusCode`");
  assert.match(found[0]!.url, /\/ping#terminatingstatuscode$/);
  const answer = await ask(app, "docs", "What does terminatingStatusCode do?");
  const first = answer.citations[0]!;
  assert.equal(first.section, "Ping > Configuration Options > `terminatingStatusCode`");
  assert.match(first.url, /#terminatingstatuscode$/);
  // The rendered page has the same anchor.
  const page = await (await app.request("/w/docs/ping")).text();
  assert.match(page, /<h3 id="terminatingstatuscode">/);
});

Deno.test("ask reads the question once: parsed into one value, nothing else in src/ask tokenizes it", async () => {
  const { db, app } = await docsWiki({ "ping": PING });
  await using _db = db;
  const before = parses.count;
  await ask(app, "docs", "What status code does ping return while shutting down?");
  assert.equal(parses.count - before, 1, "one parse per ask");
  // Nothing in src/ask but question.ts reads the question's text into words; the readers of
  // its form are called from there alone.
  const dir = new URL("../src/ask/", import.meta.url);
  for await (const f of Deno.readDir(dir)) {
    if (!f.name.endsWith(".ts") || f.name.endsWith("_test.ts") || f.name === "question.ts") {
      continue;
    }
    const source = await Deno.readTextFile(new URL(f.name, dir));
    assert.doesNotMatch(
      source,
      /(?<!function )\b(?:tokenize|contentTerms|definitionTopic|asksForCode|asksForNumber)\(\s*question\b/,
      f.name,
    );
    assert.doesNotMatch(source, /import \{[^}]*\b(?:definitionTopic|asksForCode|asksForNumber)\b/);
  }
});

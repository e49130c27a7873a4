import assert from "node:assert/strict";
import type { Hono } from "hono";
import type { Answer } from "../src/ask/ask_schema.ts";
import type { Deps } from "../src/deps.ts";
import { writePage } from "../src/pages/write_page.ts";
import type { SearchOutput } from "../src/search/search_wikis.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";

// A public wiki of documentation pages, asked and searched through REST as an assistant does
// (the tests of answers from documentation: docs_answers_test.ts, settings_entries_test.ts).

export async function ask(app: Hono, wiki: string, question: string): Promise<Answer> {
  const res = await app.request(`/api/v1/public/wikis/${wiki}/ask`, {
    method: "POST",
    body: JSON.stringify({ question }),
    headers: { "Content-Type": "application/json" },
  });
  assert.equal(res.status, 200);
  return await res.json();
}

export async function search(app: Hono, wiki: string, q: string): Promise<SearchOutput["results"]> {
  const res = await app.request(
    `/api/v1/public/wikis/${wiki}/search?q=${encodeURIComponent(q)}&limit=10`,
  );
  assert.equal(res.status, 200);
  return (await res.json()).results;
}

/**
 * The pages of a documentation set `eval/` keeps: NATS's operator docs (`nats`), Argo Rollouts'
 * (`rollouts`), Nautobot's (`nautobot`), all Apache-2.0, paperless-ngx's (`paperless`), GPL-3.0
 * (each set's README.md).
 */
export async function evalPages(
  set: "nats" | "rollouts" | "paperless" | "nautobot",
): Promise<Record<string, string>> {
  const pages = (await Deno.readTextFile(`eval/${set}/pages.jsonl`)).trim().split("\n")
    .map((line) => JSON.parse(line) as { path: string; markdown: string });
  return Object.fromEntries(pages.map((p) => [p.path, p.markdown]));
}

/** A fresh store holding `pages` (path → markdown) in the public wiki `docs`. */
export async function docsWiki(pages: Record<string, string>) {
  const db = await freshDb();
  const { app, deps } = testApp(db, { RATE_LIMIT_ANON_PER_MINUTE: "100000" });
  await createWiki(db, { id: "docs", visibility: "public" });
  for (const [path, markdown] of Object.entries(pages)) {
    await writePage(deps as Deps, { wikiId: "docs", path, markdown }, { source: "test" });
  }
  return { db, app };
}

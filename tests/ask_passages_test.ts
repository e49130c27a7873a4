import assert from "node:assert/strict";
import type { Hono } from "hono";
import type { Answer } from "../src/ask/ask_schema.ts";
import { assessQuestion } from "../src/ask/ask.ts";
import type { Db } from "../src/db/db.ts";
import { writePage } from "../src/pages/write_page.ts";
import type { SearchOutput } from "../src/search/search_wikis.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";

// Ask ranks its passages with search's ranking (`rankChunks`), rules included.

/** A wiki where the page titled "Backups" says little about backups and another page says a lot. */
async function opsWiki(db: Db) {
  const { app, deps } = testApp(db, { RATE_LIMIT_ANON_PER_MINUTE: "100000" });
  await createWiki(db, { id: "ops", visibility: "public" });
  const write = (path: string, markdown: string) =>
    writePage(deps, { wikiId: "ops", path, markdown }, { source: "test" });
  await write(
    "Backups",
    "# Backups\nBackups: the nightly job copies the database to the object store at 02:00. " +
      "Copies are kept for thirty days.",
  );
  await write(
    "Operations",
    "# Operations\n## Backups\nBackups run nightly. Backups older than thirty days are pruned. " +
      "Test restoring backups every month; untested backups are not backups.\n" +
      "## Upgrades\nUpgrade one server at a time.",
  );
  await write("Restore", "# Restore\nRestore a backup with the admin command. List backups first.");
  return { app, deps };
}

async function ask(app: Hono, question: string): Promise<Answer> {
  const res = await app.request("/api/v1/public/wikis/ops/ask", {
    method: "POST",
    body: JSON.stringify({ question }),
    headers: { "Content-Type": "application/json" },
  });
  assert.equal(res.status, 200);
  return await res.json();
}

Deno.test("ask puts the passage of the page a question names exactly first, as search puts the page", async () => {
  await using db = await freshDb();
  const { app, deps } = await opsWiki(db);
  const found: SearchOutput = await (await app.request(
    "/api/v1/public/wikis/ops/search?q=Backups",
  )).json();
  assert.equal(found.results[0]!.page, "Backups", found.results.map((r) => r.page).join());

  const { passages } = await assessQuestion(deps, ["ops"], { question: "Backups" });
  assert.equal(passages[0]!.page, "Backups", passages.map((p) => `${p.page}: ${p.section}`).join());
  assert.ok(passages[0]!.score >= 1);
  // The page that says more about backups still follows, with its own section.
  assert.ok(passages.some((p) => p.page === "Operations" && p.section === "Operations > Backups"));

  // Through the front door: the answer cites the named page first.
  const answer = await ask(app, "Backups");
  assert.equal(answer.citations[0]?.page, "Backups", JSON.stringify(answer.citations));
});

import assert from "node:assert/strict";
import { writePage } from "../src/pages/write_page.ts";
import { reparsePages } from "../src/search/reindex.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";

const by = { source: "test" };

/** A reference page whose one table is longer than a passage. */
function referencePage(): string {
  const rows = Array.from(
    { length: 120 },
    (_, i) => `| \`SETTING_${i}\` | No | ${i * 10} | What setting ${i} does. Read it twice. |`,
  );
  return `# Settings\n\n| Name | Required | Default | Description |\n| --- | --- | --- | --- |\n${
    rows.join("\n")
  }\n`;
}

Deno.test("deno task reindex re-splits pages stored by an older parser, and leaves the rest", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db);
  await createWiki(db, { id: "ops", visibility: "public" });
  await writePage(deps, { wikiId: "ops", path: "Settings", markdown: referencePage() }, by);
  await writePage(deps, { wikiId: "ops", path: "Other", markdown: "# Other\n\nShort page." }, by);
  const texts = () =>
    db<{ text: string }>`
      SELECT c.text FROM chunks c JOIN pages p ON p.id = c.page_id
      WHERE p.path = 'Settings' ORDER BY c.ord`;
  const now = (await texts()).map((r) => r.text);
  assert.ok(now.length >= 3 && now.every((t) => t.startsWith("| Name | Required")));
  // As an older release stored it: the table's rows run together on one line.
  await db`
    UPDATE chunks SET text = replace(text, E'\\n', ' ')
    WHERE page_id = (SELECT id FROM pages WHERE path = 'Settings')`;
  const other = await db`SELECT c.id, c.text FROM chunks c JOIN pages p ON p.id = c.page_id
    WHERE p.path = 'Other'`;

  assert.equal(await reparsePages(deps, null), 1, "only the page whose passages differ");
  assert.deepEqual((await texts()).map((r) => r.text), now);
  assert.deepEqual(
    await db`SELECT c.id, c.text FROM chunks c JOIN pages p ON p.id = c.page_id
      WHERE p.path = 'Other'`,
    other,
    "a page parsed the same keeps its chunks",
  );
  const [stats] = await db<{ bad: number }>`
    SELECT count(*)::int AS bad FROM term_stats s
    WHERE s.wiki_id = 'ops' AND s.df <> (
      SELECT count(*) FROM chunk_terms t WHERE t.wiki_id = s.wiki_id AND t.term = s.term)`;
  assert.equal(stats!.bad, 0, "document frequencies match the postings");
  assert.equal(await reparsePages(deps, "ops"), 0, "a second run has nothing to do");

  const res = await app.request("/api/v1/public/wikis/ops/search?q=SETTING_77");
  const found = await res.json() as { results: { page: string; snippet: string }[] };
  assert.equal(found.results[0]?.page, "Settings");
  // A row far from the table's top is shown under its header's names, one row a line.
  assert.match(found.results[0]!.snippet, /^SETTING_77 — Required: No\. Default: 770\. /m);
});

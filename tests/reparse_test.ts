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

const TAGS =
  "---\ntitle: Tags\ndescription: Group runs by customer so you can filter the dashboard." +
  "\n---\n\nAttach up to ten labels when you trigger a run.\n\n## Limits\n\nA label has at most " +
  "128 characters.\n";

Deno.test("search finds a page by its front matter's description, and reindex gives it to pages stored before", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db);
  await createWiki(db, { id: "ops", visibility: "public" });
  await writePage(deps, { wikiId: "ops", path: "tags", markdown: TAGS }, by);
  await writePage(deps, {
    wikiId: "ops",
    path: "runs",
    markdown: "# Runs\n\nA run belongs to one project. The dashboard lists runs by start time.\n",
  }, by);
  const top = async () => {
    const res = await app.request(
      `/api/v1/public/wikis/ops/search?q=${encodeURIComponent("group runs by customer")}`,
    );
    return (await res.json() as { results: { page: string; section: string | null }[] })
      .results[0];
  };
  // "customer" and "group" stand in the description alone: the page's lead is found by them.
  assert.equal((await top())?.page, "tags");
  assert.equal((await top())?.section, null);
  // As an older release stored it: the lead's heading text without the description.
  await db`UPDATE chunks SET heading_text = 'Tags'
    WHERE page_id = (SELECT id FROM pages WHERE path = 'tags') AND ord = 0`;
  assert.equal(await reparsePages(deps, null), 1, "only the page whose index lacks it");
  assert.equal(await reparsePages(deps, "ops"), 0, "a second run has nothing to do");
  assert.equal((await top())?.page, "tags");
});

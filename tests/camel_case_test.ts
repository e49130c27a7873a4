import assert from "node:assert/strict";
import { writePage } from "../src/pages/write_page.ts";
import { reparsePages } from "../src/search/reindex.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";

const by = { source: "test" };

type Found = { results: { page: string; section: string | null }[] };

// Reference documentation heads a field's section with the field's name, in camelCase; its
// text says what the field does in other words than the question's.
const bluegreen = `# BlueGreen Deployment Strategy

## previewReplicaCount

The number of pods the preview stack runs until it is promoted.

## scaleDownDelaySeconds

Seconds to wait after the switch before the previous ReplicaSet goes away. Defaults to 30.
`;

// Another page holding the question's other words.
const concepts = `# Concepts

## Blue-Green

Two identical environments run side by side, and traffic moves from one to the other at once.

## Versions

The old version keeps running for a while after each release, so that traffic can go back to
it.
`;

async function searchApp() {
  const db = await freshDb();
  const { app, deps } = testApp(db);
  await createWiki(db, { id: "docs", visibility: "public" });
  for (const [path, markdown] of Object.entries({ bluegreen, concepts })) {
    await writePage(deps, { wikiId: "docs", path, markdown }, by);
  }
  const top = async (q: string) => {
    const res = await app.request(`/api/v1/public/wikis/docs/search?q=${encodeURIComponent(q)}`);
    assert.equal(res.status, 200);
    return ((await res.json()) as Found).results[0];
  };
  return { db, top };
}

Deno.test('search finds a camelCase field by its words: scaleDownDelaySeconds for "delay … scaled down"', async () => {
  const { db, top } = await searchApp();
  await using _ = db;
  const found = await top("How long is the delay before the old version is scaled down?");
  assert.equal(found?.page, "bluegreen");
  assert.equal(found?.section, "BlueGreen Deployment Strategy > scaleDownDelaySeconds");
  // Its words are postings, not length: the chunk is as long as its text's own words.
  const [lengths] = await db<{ stored: number; words: number }>`
    SELECT c.length AS stored, (
      (SELECT coalesce(sum(cardinality(positions)), 0) FROM unnest(to_tsvector('english', c.heading_text)))
      + (SELECT coalesce(sum(cardinality(positions)), 0) FROM unnest(to_tsvector('english', c.text)))
    )::int AS words
    FROM chunks c WHERE c.text LIKE '%Seconds to wait%'`;
  assert.equal(lengths!.stored, lengths!.words);
  // The name as written still finds its section.
  assert.equal(
    (await top("previewReplicaCount"))?.section,
    "BlueGreen Deployment Strategy > previewReplicaCount",
  );
});

Deno.test('search does not read a heading of hyphenated words ("Blue-Green") as a setting the question names', async () => {
  const { db, top } = await searchApp();
  await using _ = db;
  // Every word of the question but "blue-green" is the field's: the concepts section called
  // Blue-Green is not what it names.
  const found = await top(
    "After a blue-green switch, how long is the delay before the old version is scaled down?",
  );
  assert.equal(found?.section, "BlueGreen Deployment Strategy > scaleDownDelaySeconds");
});

Deno.test("deno task reindex re-indexes the pages with camelCase words stored before they were split", async () => {
  const { db, top } = await searchApp();
  await using _ = db;
  const { deps } = testApp(db);
  // As an older release stored it: the field's name indexed whole, without its words.
  await db`
    WITH gone AS (
      DELETE FROM chunk_terms t USING chunks c
      WHERE t.chunk_id = c.id AND c.text LIKE '%Seconds to wait%' AND t.term IN ('scale', 'delay')
      RETURNING t.wiki_id, t.term
    )
    UPDATE term_stats s SET df = s.df - 1 FROM gone
    WHERE s.wiki_id = gone.wiki_id AND s.term = gone.term`;
  assert.equal(await reparsePages(deps, "docs"), 1, "only the page read otherwise now");
  assert.equal(await reparsePages(deps, "docs"), 0, "a second run has nothing to do");
  const [stats] = await db<{ bad: number }>`
    SELECT count(*)::int AS bad FROM term_stats s
    WHERE s.wiki_id = 'docs' AND s.df <> (
      SELECT count(*) FROM chunk_terms t WHERE t.wiki_id = s.wiki_id AND t.term = s.term)`;
  assert.equal(stats!.bad, 0, "document frequencies match the postings");
  const found = await top("How long is the delay before the old version is scaled down?");
  assert.equal(found?.section, "BlueGreen Deployment Strategy > scaleDownDelaySeconds");
});

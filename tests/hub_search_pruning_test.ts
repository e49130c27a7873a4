import assert from "node:assert/strict";
import type { Db } from "../src/db/db.ts";
import { importPages } from "../src/importer/import_pages.ts";
import { lexicalCacheSize } from "../src/search/lexical_cache.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, otherProcess, testApp } from "./helpers.ts";
import { callOk, mcpClient } from "./mcp_helpers.ts";
import { random, WORDS } from "./seeded_words.ts";

/** Words of the mixed wikis: all but "falcon", which the large and the small wikis hold. */
const MIXED = WORDS.filter((w) => w !== "falcon");

/** Pages of skewed random words, the skew's order shifted per wiki (each its own rare words). */
function pages(count: number, shift: number, next: () => number) {
  const word = () => MIXED[(Math.floor(MIXED.length * next() ** 2) + shift) % MIXED.length]!;
  const sentence = () => Array.from({ length: 4 + Math.floor(next() * 10) }, word).join(" ");
  return Array.from({ length: count }, (_, i) => {
    const body = Array.from({ length: 1 + Math.floor(next() * 4) }, sentence).join(". ");
    const section = next() < 0.5 ? `\n\n## ${word()} ${word()}\n\n${sentence()}.` : "";
    return { name: `P${i}.md`, path: `P${i}`, markdown: `# ${word()} ${i}\n\n${body}.${section}` };
  });
}

/**
 * A hub of public wikis skewed as hubs are: one large wiki where "falcon" is a rare word in
 * 150 of 400 pages (each with words of its own, so its index is over a megabyte), small wikis where it is in every page (its IDF there near zero: they can
 * never reach a search's best 100 chunks), and mid-sized wikis of random words without it.
 */
async function hub(deps: ReturnType<typeof testApp>["deps"]): Promise<string[]> {
  const ids: string[] = [];
  const add = async (id: string, list: { name: string; path: string; markdown: string }[]) => {
    await createWiki(deps.db, { id, visibility: "public", title: id });
    await importPages(deps, id, list);
    ids.push(id);
  };
  await add(
    "big",
    Array.from({ length: 400 }, (_, i) => ({
      name: `B${i}.md`,
      path: `B${i}`,
      markdown: `# Bird ${i}\n\n${i % 8 < 3 ? "A falcon" : "A heron"} seen near marker ${i}. ${
        // Words of its own per page: the wiki's index is over 1 MB (`SEARCH_INDEX_MB=1`).
        Array.from({ length: 48 }, (_, j) => `tag${i}x${j}`).join(" ")}.`,
    })),
  );
  for (let w = 0; w < 4; w++) {
    await add(
      `small-${w}`,
      Array.from({ length: 3 }, (_, i) => ({
        name: `S${i}.md`,
        path: `S${i}`,
        markdown: `# Falcon ${i}\n\nfalcon falcon note ${w} ${i}.`,
      })),
    );
  }
  for (let w = 0; w < 5; w++) await add(`mixed-${w}`, pages(10 + 25 * w, 3 * w, random(w + 1)));
  return ids;
}

type Found = { results: { wiki: string; page: string; score: number }[] };

/**
 * Two searches' results, the same up to the order of equal scores: the same scores in order, and
 * the same pages above the last score (PostgreSQL adds a chunk's terms in no fixed order, so
 * equal scores can differ in the last bit there, and pages tied at the cut can be either).
 */
function assertSameResults(pruned: Found, exhaustive: Found, query: string) {
  const scores = (f: Found) => f.results.map((r) => r.score);
  assert.deepEqual(scores(pruned), scores(exhaustive), query);
  const last = Math.min(...scores(exhaustive));
  const above = (f: Found) =>
    f.results.filter((r) => r.score > last).map((r) => `${r.wiki}/${r.page} ${r.score}`).sort();
  assert.deepEqual(above(pruned), above(exhaustive), query);
}

Deno.test("a search across a hub's wikis gives the exhaustive search's results, reading only the wikis that can reach them", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db);
  const ids = await hub(deps);
  // Another process over the same store whose index bound is 0 bytes: every search is the SQL
  // leg's exhaustive BM25 over every chunk of every wiki, no wiki skipped.
  const sqlDb = otherProcess(db as Db & { url?: string });
  const exhaustive = testApp(sqlDb, { SEARCH_INDEX_MB: "0" }).app;
  // And one whose bound (1 MB) is below the large wiki's index: that wiki is scored in SQL,
  // the others in memory, in one ranking.
  const smallDb = otherProcess(db as Db & { url?: string });
  const small = testApp(smallDb, { SEARCH_INDEX_MB: "1" }).app;
  try {
    const pruned = await mcpClient(app, "/mcp/hub/");
    const full = await mcpClient(exhaustive, "/mcp/hub/");
    const mixed = await mcpClient(small, "/mcp/hub/");

    // "falcon": the large wiki alone holds its best 100 chunks; the small wikis' bound is
    // below them, so their indexes are never read.
    const found = await callOk<Found>(pruned, "search", { query: "falcon", limit: 20 });
    assertSameResults(
      found,
      await callOk<Found>(full, "search", { query: "falcon", limit: 20 }),
      "falcon",
    );
    assert.ok(found.results.every((r) => r.wiki === "big"), JSON.stringify(found.results));
    const held = lexicalCacheSize(db).map((e) => e.wiki);
    assert.ok(held.includes("big"), held.join());
    for (const id of ids.filter((id) => id.startsWith("small-"))) {
      assert.ok(!held.includes(id), `${id} was read: ${held.join()}`);
    }

    // Random queries over every wiki: the same results as the exhaustive search, page by page.
    const next = random(33);
    for (let i = 0; i < 30; i++) {
      const query = Array.from(
        { length: 1 + Math.floor(next() * 4) },
        () => WORDS[Math.floor(WORDS.length * next())]!,
      ).join(" ");
      for (const limit of [10, 50]) {
        const expected = await callOk<Found>(full, "search", { query, limit });
        for (const client of [pruned, mixed]) {
          assertSameResults(
            await callOk<Found>(client, "search", { query, limit }),
            expected,
            `${query} (${limit})`,
          );
        }
      }
    }
    assert.ok(!lexicalCacheSize(smallDb).some((e) => e.wiki === "big"));
    for (const client of [pruned, full, mixed]) await client.close();
  } finally {
    for (const other of [sqlDb, smallDb]) if (other !== (db as Db)) await other.close();
  }
});

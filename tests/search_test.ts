import assert from "node:assert/strict";
import type { Db } from "../src/db/db.ts";
import type { AppError } from "../src/errors.ts";
import { deletePage, renamePage } from "../src/pages/rename_page.ts";
import { importPages } from "../src/importer/import_pages.ts";
import { writePage } from "../src/pages/write_page.ts";
import { EmbedderError } from "../src/lib/embedder.ts";
import { createOfflineEmbedder } from "../src/search/offline_embedder.ts";
import { reindexVectors } from "../src/search/reindex.ts";
import { rankPages, searchWikis } from "../src/search/search_wikis.ts";
import { selectNearestIndexed } from "../src/search/store.ts";
import { countStaleChunks, ensureVectorIndex } from "../src/search/vector_index.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { countingDb, freshDb, testDeps } from "./helpers.ts";

const by = { source: "test" };

/** The statistics BM25 reads, as stored and as recomputed from the chunks themselves. */
async function bm25Statistics(db: Db, wikiId: string) {
  const stored = await db<{ term: string; df: number }>`
    SELECT term, df FROM term_stats WHERE wiki_id = ${wikiId} AND df > 0 ORDER BY term`;
  const recomputed = await db<{ term: string; df: number }>`
    SELECT t.lexeme AS term, count(DISTINCT c.id)::int AS df
    FROM chunks c, unnest(to_tsvector('english', c.heading_text || ' ' || c.text)) t
    WHERE c.wiki_id = ${wikiId}
    GROUP BY t.lexeme ORDER BY t.lexeme`;
  const totals = await db<{ chunks: number; length_sum: number }>`
    SELECT chunks::int, length_sum::int FROM search_stats WHERE wiki_id = ${wikiId}`;
  const actual = await db<{ chunks: number; length_sum: number }>`
    SELECT count(*)::int AS chunks, coalesce(sum(length), 0)::int AS length_sum FROM chunks WHERE wiki_id = ${wikiId}`;
  const lengths = await db<{ bad: number }>`
    SELECT count(*)::int AS bad FROM chunks c
    WHERE c.wiki_id = ${wikiId}
      AND c.length <> (SELECT coalesce(sum(cardinality(positions)), 0)
                       FROM unnest(to_tsvector('english', c.heading_text || ' ' || c.text)))`;
  return { stored, recomputed, totals: totals[0], actual: actual[0], badLengths: lengths[0]!.bad };
}

async function assertStatisticsRight(db: Db, wikiId: string) {
  const s = await bm25Statistics(db, wikiId);
  assert.deepEqual(s.stored, s.recomputed);
  assert.deepEqual(s.totals, s.actual);
  assert.equal(s.badLengths, 0);
}

Deno.test("BM25 statistics stay right through page create, update, rename and delete", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "w" });
  await createWiki(db, { id: "other" });
  await writePage(deps, {
    wikiId: "w",
    path: "Cats",
    markdown: "# Cats\nCats purr and cats sleep.\n## Food\nFish.",
  }, by);
  await writePage(
    deps,
    { wikiId: "w", path: "Dogs", markdown: "# Dogs\nDogs bark. Running dogs." },
    by,
  );
  await writePage(deps, {
    wikiId: "other",
    path: "Cats",
    markdown: "# Cats elsewhere\nNot counted in w.",
  }, by);
  await assertStatisticsRight(db, "w");
  await writePage(deps, {
    wikiId: "w",
    path: "Cats",
    markdown: "# Cats\nCats now hunt mice.\n## Food\nMice.",
  }, by);
  await assertStatisticsRight(db, "w");
  await renamePage(deps, { wikiId: "w", path: "Dogs", newPath: "Animals/Dogs" }, by);
  await assertStatisticsRight(db, "w");
  await deletePage(deps, { wikiId: "w", path: "Cats" }, by);
  await assertStatisticsRight(db, "w");
  await assertStatisticsRight(db, "other");
  const { stored } = await bm25Statistics(db, "w");
  assert.ok(
    !stored.some((t) => t.term === "mice"),
    "a deleted page's terms leave the document frequencies",
  );
});

Deno.test("search ranks an exact title match first", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "w" });
  await writePage(deps, {
    wikiId: "w",
    path: "Guides/Tokens",
    markdown: "# Tokens\nHow to make one.",
  }, by);
  for (let i = 0; i < 5; i++) {
    await writePage(deps, {
      wikiId: "w",
      path: `Other ${i}`,
      markdown: `# Other ${i}\nTokens tokens tokens: account tokens, space tokens, token rotation.`,
    }, by);
  }
  const { results } = await searchWikis(deps, ["w"], { query: "tokens" });
  assert.equal(results[0]!.page, "Guides/Tokens");
  assert.equal(results.length, 6);
});

Deno.test("search results carry section, marked snippet, url, revision; a cursor pages them", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "w" });
  await writePage(deps, {
    wikiId: "w",
    path: "Setup",
    markdown: "# Setup\nIntro.\n## Install the server\nRun the installer and restart the service.",
  }, by);
  for (let i = 0; i < 4; i++) {
    await writePage(deps, {
      wikiId: "w",
      path: `Note ${i}`,
      markdown: `Restart the service ${i} times.`,
    }, by);
  }
  const first = await searchWikis(deps, ["w"], { query: "installer restart", limit: 2 });
  const top = first.results[0]!;
  assert.equal(top.page, "Setup");
  assert.equal(top.section, "Setup > Install the server");
  assert.equal(top.snippet, "Run the installer and restart the service.");
  assert.deepEqual(top.matches.map((m) => top.snippet.slice(m.start, m.end)), [
    "installer",
    "restart",
  ]);
  assert.equal(top.url, "http://wiki.test/w/w/Setup#install-the-server");
  assert.equal(top.revision, 1);
  assert.ok(first.next_cursor);
  const second = await searchWikis(deps, ["w"], {
    query: "installer restart",
    limit: 2,
    cursor: first.next_cursor!,
  });
  const seen = new Set([...first.results, ...second.results].map((r) => r.page));
  assert.equal(seen.size, 4);
});

Deno.test("a snippet keeps inline code that holds < or > as code, not as HTML or a quote's marker", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "w" });
  const pages = {
    Setup:
      '# Setup\n## ImageMagick\nEdit the policy file and adjust `<policy domain="coder" rights="none" pattern="PDF" />` to `<policy domain="coder" rights="read|write" pattern="PDF" />`. Use `<br>` for breaks.\n',
    Operators: "# Operators\nThe comparison operators:\n\n* `==` (equal)\n* `>` (greater-than)\n",
  };
  for (const [path, markdown] of Object.entries(pages)) {
    await writePage(deps, { wikiId: "w", path, markdown }, by);
  }
  const [policy] = (await searchWikis(deps, ["w"], { query: "imagemagick policy file" })).results;
  assert.equal(
    policy!.snippet,
    'Edit the policy file and adjust `<policy domain="coder" rights="none" pattern="PDF" />` to `<policy domain="coder" rights="read|write" pattern="PDF" />`. Use `<br>` for breaks.',
  );
  assert.ok(policy!.matches.some((m) => policy!.snippet.slice(m.start, m.end) === "policy"));
  const [ops] = (await searchWikis(deps, ["w"], { query: "comparison operators greater" })).results;
  assert.equal(ops!.snippet, "The comparison operators:\n== (equal).\n`>` (greater-than).");
});

Deno.test("empty and over-long queries and unknown wikis get clear errors", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "w" });
  await assert.rejects(searchWikis(deps, ["w"], { query: "   " }), /query is empty/);
  await assert.rejects(
    searchWikis(deps, ["w"], { query: "x".repeat(1001) }),
    /over 1000 characters/,
  );
  await assert.rejects(
    searchWikis(deps, ["nope"], { query: "x" }),
    (e: AppError) => e.code === "wiki_not_found",
  );
  await assert.rejects(
    searchWikis(deps, ["w"], { query: "x", limit: 0 }),
    (e: AppError) => e.code === "bad_request",
  );
});

/** The offline embedder as a real model would be used: vectors stored, a vector leg of its own. */
function storedVectors(deps: ReturnType<typeof testDeps>) {
  return { ...deps, embedder: { ...deps.embedder, weak: false } };
}

Deno.test("a small wiki's results are complete inside a large store, by exact scan and by HNSW", async () => {
  await using db = await freshDb();
  const deps = storedVectors(testDeps(db, { EMBEDDING_DIMENSIONS: "32" }));
  await ensureVectorIndex(db, deps.embedder);
  await createWiki(db, { id: "big" });
  await createWiki(db, { id: "small" });
  // 4,000 chunks of a large wiki, on vectors close to the query's, in bulk.
  const [query] = await deps.embedder.embed(["solar panels on the roof"]);
  await db`INSERT INTO pages (wiki_id, path, path_key, name_key, title, markdown, revision, content_hash)
    VALUES ('big', 'Bulk', 'bulk', 'bulk', 'Bulk', '', 1, 'x')`;
  await db`
    INSERT INTO chunks (page_id, wiki_id, ord, heading_path, anchor, text, embedder, embedding)
    SELECT (SELECT id FROM pages WHERE path = 'Bulk'), 'big', g, '{}', '', 'bulk', ${deps.embedder.id},
      (SELECT array_agg(q + (random() - 0.5) * 0.3 + g * 0)::vector
       FROM unnest(${`{${query!.join(",")}}`}::float4[]) q)
    FROM generate_series(1, 4000) g`;
  const topics = ["Compost heaps", "Bee keeping", "Rain barrels", "Chicken coops", "Herb spirals"];
  for (const t of topics) {
    await writePage(deps, {
      wikiId: "small",
      path: t,
      markdown: `# ${t}\nSolar panels on the roof of the ${t}.`,
    }, by);
  }
  const ranked = await rankPages(deps, ["small"], "solar panels on the roof", "vector");
  assert.deepEqual(ranked.map((r) => r.path).sort(), [...topics].sort());
  // The same through the HNSW index, which filters after scanning: iterative scans go on
  // until enough rows of the small wiki pass the filter. (Without the btree on
  // (embedder, wiki_id) and seq scans, the planner has only the HNSW index to use.)
  await db.exec("DROP INDEX chunks_embedder");
  const { plan, hits } = await db.transaction(async (tx) => {
    await tx`SELECT set_config('enable_seqscan', 'off', true)`;
    const explain = await tx.query<Record<string, string>>(
      `EXPLAIN SELECT id FROM chunks WHERE embedder = $1 AND (wiki_id || '') = ANY($2::text[])
       ORDER BY embedding::vector(32) <=> $3::vector(32) LIMIT 10`,
      [deps.embedder.id, ["small"], query],
    );
    const hits = await selectNearestIndexed(
      tx,
      deps.embedder,
      ["small"],
      deps.embedder.id,
      query!,
      10,
    );
    return { plan: explain.map((r) => Object.values(r)[0]).join("\n"), hits };
  });
  assert.match(plan, /chunks_hnsw_32/);
  assert.equal(hits.length, 5);
});

Deno.test("when the embedder fails, pages are stored without vectors, search goes on, reindex fills them", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  let down = true;
  const working = createOfflineEmbedder(deps.embedder.dimensions);
  deps.embedder = {
    ...working,
    weak: false,
    embed: (texts) =>
      down ? Promise.reject(new EmbedderError("endpoint down")) : working.embed(texts),
  };
  await createWiki(db, { id: "w" });
  const outcome = await writePage(deps, {
    wikiId: "w",
    path: "Kept",
    markdown: "# Kept\nWritten during an outage.",
  }, by);
  assert.equal(outcome.status, "created");
  assert.ok(deps.logLines.some((l) => l.includes("stored without vectors")));
  assert.equal(await countStaleChunks(db, deps.embedder), 1);
  const during = await searchWikis(deps, ["w"], { query: "outage" });
  assert.equal(during.results[0]!.page, "Kept");
  down = false;
  const progress: number[] = [];
  assert.equal(await reindexVectors(deps, null, (done) => progress.push(done)), 1);
  assert.deepEqual(progress, [0, 1]);
  assert.equal(await countStaleChunks(db, deps.embedder), 0);
  const vector = await rankPages(deps, ["w"], "outage", "vector");
  assert.equal(vector[0]!.path, "Kept");
});

/**
 * An embedder whose vectors say only whether a text mentions a zebra or a giraffe: the two
 * point the same way, so a vector leg finds the giraffe page for "zebra" although BM25 cannot.
 */
function animalEmbedder(weak: boolean) {
  const calls: string[][] = [];
  return {
    calls,
    id: "test:animals",
    dimensions: 2,
    weak,
    embed: (texts: string[]) => {
      calls.push(texts);
      return Promise.resolve(
        texts.map((t) => new Float32Array(/zebra|giraffe/i.test(t) ? [1, 0] : [0, 1])),
      );
    },
  };
}

async function animalWiki(weak: boolean) {
  const db = await freshDb();
  await createWiki(db, { id: "w" });
  const embedder = animalEmbedder(weak);
  await ensureVectorIndex(db, embedder);
  const deps = { ...testDeps(db), embedder };
  await writePage(deps, { wikiId: "w", path: "Tall", markdown: "# Tall\nA giraffe." }, by);
  for (let i = 0; i < 3; i++) {
    await writePage(deps, { wikiId: "w", path: `Z${i}`, markdown: `# Z${i}\nA zebra.` }, by);
  }
  await writePage(deps, { wikiId: "w", path: "Other", markdown: "# Other\nA horse." }, by);
  const paths = async (mode: "hybrid" | "vector") =>
    (await rankPages(deps, ["w"], "zebra", mode)).map((r) => r.path).sort();
  return { db, deps, embedder, paths };
}

Deno.test("a real model's vectors are stored and its vector leg finds what BM25 cannot", async () => {
  const { db, embedder, paths } = await animalWiki(false);
  await using _ = db;
  assert.deepEqual(await paths("hybrid"), ["Tall", "Z0", "Z1", "Z2"]);
  assert.ok((await paths("vector")).includes("Tall"));
  const [stored] = await db<{ n: number }>`
    SELECT count(*)::int AS n FROM chunks WHERE embedder = 'test:animals' AND embedding IS NOT NULL`;
  assert.equal(stored!.n, 5);
  assert.ok(embedder.calls.length > 0);
});

Deno.test("the offline embedder stores no vectors and builds no index: hybrid is the lexical leg", async () => {
  const { db, deps, embedder, paths } = await animalWiki(true);
  await using _ = db;
  assert.deepEqual(await paths("hybrid"), ["Z0", "Z1", "Z2"]);
  assert.deepEqual(await paths("vector"), []);
  assert.deepEqual(embedder.calls, [], "neither writes nor searches call the embedder");
  const [chunks] = await db<{ n: number; vectors: number }>`
    SELECT count(*)::int AS n, count(embedding)::int AS vectors FROM chunks`;
  assert.deepEqual(chunks, { n: 5, vectors: 0 });
  const indexes = await db<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_indexes WHERE indexname LIKE 'chunks_hnsw%'`;
  assert.equal(indexes[0]!.n, 0);
  assert.equal(await countStaleChunks(db, deps.embedder), 0, "nothing for reindex to do");
  assert.equal(await reindexVectors(deps, null), 0);
});

Deno.test("a search of an indexed wiki is two statements: statistics, then its candidates", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "w" });
  await createWiki(db, { id: "empty" });
  for (let i = 0; i < 12; i++) {
    await writePage(deps, {
      wikiId: "w",
      path: `Notes/Fox ${i}`,
      markdown:
        `# Fox ${i}\nThe quick brown fox number ${i} jumps.\n## Den\nA fox den, see [[Notes/Fox 0]].`,
    }, by);
  }
  const counted = countingDb(db);
  const search = { ...deps, db: counted.db };
  const first = await searchWikis(search, ["w"], { query: "fox den", limit: 5 });
  counted.statements.length = 0;
  const again = await searchWikis(search, ["w"], { query: "fox den", limit: 5 });
  assert.deepEqual(again, first);
  assert.equal(again.results.length, 5);
  assert.equal(counted.statements.length, 2, counted.statements.join("\n---\n"));
  // A later page of results reads the text of chunks beyond the best ones: one more.
  counted.statements.length = 0;
  const later = await searchWikis(search, ["w"], {
    query: "fox den",
    limit: 5,
    cursor: again.next_cursor!,
  });
  assert.ok(later.results.length > 0);
  assert.ok(later.results.every((r) => r.snippet.includes("fox") || r.snippet.includes("Fox")));
  assert.ok(counted.statements.length <= 3);
  // An exact title match comes first from the same statement.
  counted.statements.length = 0;
  const titled = await searchWikis(search, ["w"], { query: "Fox 7", limit: 3 });
  assert.equal(titled.results[0]!.page, "Notes/Fox 7");
  assert.ok(counted.statements.length <= 3);
  // A wiki that never held a chunk has no statistics: it is looked up, and found.
  assert.deepEqual(await searchWikis(search, ["empty"], { query: "fox" }), {
    results: [],
    next_cursor: null,
  });
  await assert.rejects(
    () => searchWikis(search, ["w", "nope"], { query: "fox" }),
    (e: AppError) => e.code === "wiki_not_found",
  );
});

Deno.test("a search reads the rows of its best chunks only: the other candidates' pages come from the in-memory index", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "w" });
  await importPages(
    deps,
    "w",
    Array.from({ length: 45 }, (_, i) => ({
      name: `Otters/Otter ${i}.md`,
      path: `Otters/Otter ${i}`,
      markdown: `# Otter ${i}\nThe otter ${"swims ".repeat(i % 7)}in river ${i}.\n\n` +
        `## Den ${i}\nA den by the water${", otter".repeat(1 + (i % 3))}.`,
    })),
  );
  const counted = countingDb(db);
  const search = { ...deps, db: counted.db };
  await searchWikis(search, ["w"], { query: "otter", limit: 10 }); // the index is read
  counted.statements.length = 0;
  counted.rows.length = 0;
  let results = await searchWikis(search, ["w"], { query: "otter", limit: 10 });
  assert.equal(counted.statements.length, 2, counted.statements.join("\n---\n"));
  // 90 chunks hold "otter": the rows of the best 30 are read (their text is re-scored), not 90.
  assert.ok(counted.rows[1]! <= 30, `the candidates statement returned ${counted.rows[1]} rows`);
  // Every page is still found once, with its own title, path and a snippet of its own text.
  const seen: string[] = [];
  for (;;) {
    for (const r of results.results) {
      assert.equal(r.title, r.page.slice("Otters/".length));
      assert.match(r.snippet, /otter/i);
      seen.push(r.page);
    }
    if (!results.next_cursor) break;
    results = await searchWikis(search, ["w"], {
      query: "otter",
      limit: 10,
      cursor: results.next_cursor,
    });
  }
  assert.equal(seen.length, 45);
  assert.equal(new Set(seen).size, 45);
});

Deno.test("a page deleted while a search runs is left out of its results, not an error", async () => {
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "w" });
  await importPages(
    deps,
    "w",
    Array.from({ length: 60 }, (_, i) => ({
      name: `Beaver ${i}.md`,
      path: `Beaver ${i}`,
      markdown: `# Notes ${i}\nA beaver${" builds".repeat(i % 9)} dams ${i}.`,
    })),
  );
  const before = await searchWikis(deps, ["w"], { query: "beaver", limit: 50 });
  assert.equal(before.results.length, 50);
  // Another writer deletes the 40th page after this search ranked its chunks (the statistics
  // showed the version its index holds), before its rows are read.
  const victim = before.results[39]!.page;
  let armed = false;
  const counted = countingDb(db, async (text) => {
    if (!armed || !/FROM search_stats s\b/.test(text)) return;
    armed = false;
    await deletePage(deps, { wikiId: "w", path: victim }, by);
  });
  await searchWikis({ ...deps, db: counted.db }, ["w"], { query: "beaver" }); // its index
  armed = true;
  const during = await searchWikis({ ...deps, db: counted.db }, ["w"], {
    query: "beaver",
    limit: 50,
  });
  assert.equal(armed, false, "the page was deleted during the search");
  // The others in their order (the page that ranked 51st may fill the gap).
  assert.deepEqual(
    during.results.map((r) => r.page).slice(0, 49),
    before.results.map((r) => r.page).filter((p) => p !== victim),
  );
  assert.ok(!during.results.some((r) => r.page === victim));
  const after = await searchWikis(deps, ["w"], { query: "beaver", limit: 50 });
  assert.ok(!after.results.some((r) => r.page === victim));
  assert.equal(after.results.length, 50);
});

Deno.test("ranking every candidate's page (what the eval reads) does not trip over candidates read for their page alone", async () => {
  // NATS's docs (eval/nats, Apache-2.0), imported as `deno task eval` imports them: the best 30
  // chunks are read with their headings, the other candidates for their page only, and one of
  // those reached the rule for a setting the query names, which read its heading path (null).
  await using db = await freshDb();
  const deps = testDeps(db);
  await createWiki(db, { id: "w" });
  const pages = (await Deno.readTextFile("eval/nats/pages.jsonl")).trim().split("\n")
    .map((l) => JSON.parse(l) as { path: string; markdown: string })
    .map((p) => ({ ...p, name: `${p.path}.md` }));
  await importPages(deps, "w", pages);
  const query = "Which command-line switch sets the folder where JetStream keeps its data?";
  for (const mode of ["lexical", "hybrid"] as const) {
    const ranked = await rankPages(deps, ["w"], query, mode);
    assert.ok(ranked.length > 10, mode);
    assert.equal(new Set(ranked.map((r) => r.path)).size, ranked.length);
  }
});

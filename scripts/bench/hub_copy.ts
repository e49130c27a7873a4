import type { Deps } from "../../src/deps.ts";
import { resetChunkLog } from "../../src/search/store.ts";
import { createWiki } from "../../src/wikis/wikis.ts";
import { bulkLoadPages } from "./bulk_load.ts";
import { asSources, type EvalPage } from "./corpus.ts";
import { type HubPlan, hubSizes, hubWikiId } from "./hub_tier.ts";
import { withoutPostingKeys } from "./postings.ts";

/** The private wiki the hub's wikis are copied from (not listed, not searched by the hub). */
export const HUB_TEMPLATE = "hub-template";

/**
 * Makes the hub at a million chunks in minutes rather than hours: the eval pages are imported
 * once (`bulkLoadPages`: parsed, chunked, their postings computed by PostgreSQL) into a private
 * template wiki, then each hub wiki gets copies of the template's pages, chunks and postings by
 * `INSERT … SELECT` inside PostgreSQL, four statements a wiki whatever its size: a wiki larger
 * than the template holds several copies of it (`c0/…`, `c1/…`: the same texts, so the same
 * postings and document-frequency shape as real pages, each term's df multiplied). Loading
 * page by page through `bulkLoadPages` ran at ~60 chunks/s here, most of it the fixed cost per
 * wiki; this runs at the speed PostgreSQL inserts postings. The postings' keys are dropped during
 * the load and built once at the end, by sorting. No revisions, links or vectors are copied
 * (the bench's offline embedder stores none). Returns the chunks loaded per hub wiki.
 */
export async function copyHub(
  deps: Deps,
  base: EvalPage[],
  plan: HubPlan,
  progress: (text: string) => void,
): Promise<number[]> {
  const db = deps.db;
  await createWiki(db, { id: HUB_TEMPLATE, visibility: "private", title: "Hub template" });
  const sizes = hubSizes(plan);
  // As many eval pages as the largest wiki holds chunks, or all of them.
  const template = await bulkLoadPages(deps, HUB_TEMPLATE, asSources(base), {
    maxChunks: sizes[0],
  });
  progress(`hub template: ${template.pages} pages, ${template.chunks} chunks`);
  // Each template page with the chunks before it: the first n chunks of a wiki are its pages
  // whose `before` is under n, in copy after copy of the template.
  await db.exec(`CREATE UNLOGGED TABLE IF NOT EXISTS hub_template_pages
    (id bigint PRIMARY KEY, before bigint NOT NULL, n int NOT NULL)`);
  await db`
    INSERT INTO hub_template_pages (id, before, n)
    SELECT page_id, sum(n) OVER (ORDER BY page_id) - n, n
    FROM (SELECT page_id, count(*)::int AS n FROM chunks WHERE wiki_id = ${HUB_TEMPLATE}
      GROUP BY page_id) c`;
  // Its postings, apart: read by chunk while chunk_terms has no keys.
  await db.exec(`CREATE UNLOGGED TABLE IF NOT EXISTS hub_template_terms AS
    SELECT chunk_id, term, tf_heading, tf_body, length FROM chunk_terms WHERE false`);
  await db`
    INSERT INTO hub_template_terms
    SELECT chunk_id, term, tf_heading, tf_body, length FROM chunk_terms
    WHERE wiki_id = ${HUB_TEMPLATE}`;
  await db.exec(
    "CREATE INDEX IF NOT EXISTS hub_template_terms_chunk ON hub_template_terms (chunk_id)",
  );
  // Fresh tables: without statistics the copies' joins may be planned as nested loops.
  await db.exec("ANALYZE pages, chunks, hub_template_pages, hub_template_terms");
  const loaded: number[] = [];
  await db.exec("DROP INDEX IF EXISTS chunk_terms_chunk");
  try {
    await withoutPostingKeys(db, "1GB", async () => {
      for (const [i, size] of sizes.entries()) {
        const id = hubWikiId(i);
        await createWiki(db, { id, visibility: "public", title: `Hub wiki ${i}` });
        loaded.push(await copyIntoWiki(deps, id, size, template.chunks));
        if (i % 100 === 99 || i === 0) {
          progress(`hub: ${i + 1} wikis, ${loaded.reduce((a, b) => a + b)} chunks`);
        }
      }
      progress("hub: building the postings' keys");
    });
  } finally {
    await db.transaction(async (tx) => {
      await tx`SELECT set_config('maintenance_work_mem', '1GB', true)`;
      await tx.exec("CREATE INDEX IF NOT EXISTS chunk_terms_chunk ON chunk_terms (chunk_id)");
    });
    await db.exec("DROP TABLE IF EXISTS hub_template_pages, hub_template_terms");
  }
  return loaded;
}

/** A hub wiki's first `size` chunks of the template, repeated: pages, chunks, postings, stats. */
async function copyIntoWiki(
  deps: Deps,
  wikiId: string,
  size: number,
  templateChunks: number,
): Promise<number> {
  const copies = Math.max(1, Math.ceil(size / templateChunks));
  return await deps.db.transaction(async (tx) => {
    // At least the first page, so that no wiki is empty.
    await tx`
      INSERT INTO pages (wiki_id, path, path_key, name_key, title, markdown, revision, content_hash)
      SELECT ${wikiId}, 'c' || k || '/' || p.path, 'c' || k || '/' || p.path_key, p.name_key,
        p.title, p.markdown, 1, p.content_hash
      FROM hub_template_pages t CROSS JOIN generate_series(0, ${copies - 1}) k
      JOIN pages p ON p.id = t.id
      WHERE k::bigint * ${templateChunks} + t.before < ${size} OR (k = 0 AND t.before = 0)
      ORDER BY k, t.id`;
    // Each new page's template page is the one of its path without the copy's `cN/`.
    await tx`
      INSERT INTO chunks (page_id, wiki_id, ord, heading_path, anchor, heading_text, text, length)
      SELECT np.id, ${wikiId}, c.ord, c.heading_path, c.anchor, c.heading_text, c.text, c.length
      FROM pages np
      JOIN pages p ON p.wiki_id = ${HUB_TEMPLATE}
        AND p.path_key = substr(np.path_key, strpos(np.path_key, '/') + 1)
      JOIN chunks c ON c.page_id = p.id
      WHERE np.wiki_id = ${wikiId}
      ORDER BY np.id, c.ord`;
    // The postings of each new chunk are its template chunk's, found by page and `ord`.
    await tx`
      WITH postings AS (
        INSERT INTO chunk_terms (wiki_id, term, chunk_id, tf_heading, tf_body, length)
        SELECT ${wikiId}, t.term, nc.id, t.tf_heading, t.tf_body, t.length
        FROM chunks nc
        JOIN pages np ON np.id = nc.page_id
        JOIN pages p ON p.wiki_id = ${HUB_TEMPLATE}
          AND p.path_key = substr(np.path_key, strpos(np.path_key, '/') + 1)
        JOIN chunks c ON c.page_id = p.id AND c.ord = nc.ord
        JOIN hub_template_terms t ON t.chunk_id = c.id
        WHERE nc.wiki_id = ${wikiId}
        RETURNING term
      )
      INSERT INTO term_stats (wiki_id, term, df)
      SELECT ${wikiId}, term, count(*)::int FROM postings GROUP BY term`;
    const [row] = await tx<{ chunks: number }>`
      INSERT INTO search_stats AS s (wiki_id, chunks, length_sum)
      SELECT ${wikiId}, count(*), coalesce(sum(length), 0) FROM chunks WHERE wiki_id = ${wikiId}
      ON CONFLICT (wiki_id) DO UPDATE SET chunks = excluded.chunks,
        length_sum = excluded.length_sum
      RETURNING s.chunks::int AS chunks`;
    // Every process's in-memory index of the wiki reads it again, as after any write.
    await resetChunkLog(tx, wikiId);
    return row!.chunks;
  });
}

import type { Db } from "../../src/db/db.ts";
import type { WriteDeps } from "../../src/deps.ts";
import type { SourcePage } from "../../src/importer/read_sources.ts";
import { type ParsedPage, parsePage } from "../../src/markdown/parse_page.ts";
import { cleanPath, nameKey, pathKey } from "../../src/markdown/paths.ts";
import { replaceLinks, resolveLinks } from "../../src/pages/store.ts";
import { prepareChunks } from "../../src/search/prepare_chunks.ts";
import { touchWiki } from "../../src/wikis/store.ts";
import { resetChunkLog } from "../../src/search/mod.ts";

/**
 * A page to load; with `copyOf`, a copy of that page (already in the wiki, at `copyOf.path`)
 * that differs only by added "the"s: when its chunks line up with the page's, they have the
 * same lexemes and term counts, and their postings are copied instead of computed.
 */
export type BulkPage = SourcePage & { copyOf?: { path: string; markdown: string; title?: string } };

/** A page ready for the bulk insert: what `writePage` computes before its transaction. */
type PreparedPage = {
  path: string;
  basePath: string | undefined;
  parsed: ParsedPage;
  prepared: Awaited<ReturnType<typeof prepareChunks>>;
  markdown: string;
};

/**
 * Writes new pages into a wiki with the rows an import would leave (page, revision 1, links,
 * chunks with their vectors, BM25 postings, document frequencies and totals), hundreds of
 * pages per statement instead of one page per transaction: the bench's way to grow a corpus
 * to 100k chunks in minutes. Parsing and embedding are the import's own functions; the SQL
 * mirrors `insertPage`, `insertRevision` and `replaceChunks` for a batch of pages, and
 * tests/bench_bulk_load_test.ts checks that both leave the same rows. Pages must be new.
 * Each batch is prepared once and written to `deps.db` and to every store in `alsoInto`, side
 * by side (PGlite works on this thread while PostgreSQL works in its own process).
 * Returns how many pages and chunks it wrote (to each store), and how many pages were copies
 * whose postings it copied.
 */
export async function bulkLoadPages(
  deps: WriteDeps,
  wikiId: string,
  pages: BulkPage[],
  options: {
    batchSize?: number;
    /** Stop before the page that would take the wiki past this many new chunks. */
    maxChunks?: number;
    alsoInto?: Db[];
    onBatch?: (pages: number, chunks: number) => void;
  } = {},
): Promise<{ pages: number; chunks: number; copied: number }> {
  const dbs = [deps.db, ...options.alsoInto ?? []];
  const batchSize = options.batchSize ?? 500;
  const maxChunks = options.maxChunks ?? Infinity;
  let chunks = 0;
  let done = 0;
  let copied = 0;
  let next = preparePages(deps, pages.slice(0, batchSize));
  for (let start = 0; start < pages.length && chunks < maxChunks; start += batchSize) {
    const batch = await next;
    // Parse and embed the next batch while PostgreSQL stores this one.
    next = preparePages(deps, pages.slice(start + batchSize, start + 2 * batchSize));
    let room = maxChunks - chunks;
    const fits = batch.filter((p) => (room -= p.prepared.chunks.length) >= 0);
    await Promise.all(dbs.map((db) => db.transaction((tx) => insertBatch(tx, wikiId, fits))));
    chunks += fits.reduce((n, p) => n + p.prepared.chunks.length, 0);
    done += fits.length;
    copied += fits.filter((p) => p.basePath !== undefined).length;
    options.onBatch?.(done, chunks);
    if (fits.length < batch.length) break;
  }
  await next;
  return { pages: done, chunks, copied };
}

async function preparePages(deps: WriteDeps, pages: BulkPage[]): Promise<PreparedPage[]> {
  const out: PreparedPage[] = [];
  for (const page of pages) {
    if ("error" in page) throw new Error(`${page.name}: ${page.error}`);
    const path = cleanPath(page.path);
    if (!path) throw new Error(`Page path "${page.path}" is not valid`);
    const parsed = await parsePage(path, page.markdown, page.title);
    const prepared = await prepareChunks(deps, parsed);
    const basePath = page.copyOf && linesUp(parsed, await parseCopied(page.copyOf))
      ? page.copyOf.path
      : undefined;
    out.push({ path, basePath, parsed, prepared, markdown: page.markdown });
  }
  return out;
}

function parseCopied(page: { path: string; markdown: string; title?: string }) {
  return parsePage(cleanPath(page.path)!, page.markdown, page.title);
}

/**
 * Whether a copy's chunks are its page's but for the "the"s it gained (a stopword of
 * PostgreSQL's 'english' configuration: no lexeme): same count, headings, and the same text
 * once every " the " is taken out of both. Where a long paragraph splits at another sentence,
 * they are not.
 */
function linesUp(copy: ParsedPage, page: ParsedPage): boolean {
  const words = (text: string) => text.replaceAll(" the ", " ");
  return copy.title === page.title && copy.chunks.length === page.chunks.length &&
    copy.chunks.every((c, i) => {
      const p = page.chunks[i]!;
      return c.ord === p.ord && c.headingPath.join("\n") === p.headingPath.join("\n") &&
        words(c.text) === words(p.text);
    });
}

async function insertBatch(tx: Db, wikiId: string, batch: PreparedPage[]): Promise<void> {
  if (batch.length === 0) return;
  await tx`SELECT 1 FROM wikis WHERE id = ${wikiId} FOR NO KEY UPDATE`;
  const ids = await insertPages(tx, wikiId, batch);
  const computed = batch.flatMap((p, i) => p.basePath === undefined ? [ids[i]!] : []);
  await insertChunks(tx, wikiId, batch.filter((p) => p.basePath === undefined), computed);
  if (computed.length > 0) await indexChunkTerms(tx, wikiId, computed);
  const copies = batch.filter((p) => p.basePath !== undefined);
  if (copies.length > 0) {
    await copyChunks(tx, wikiId, copies, batch.flatMap((p, i) => p.basePath ? [ids[i]!] : []));
  }
  await touchWiki(tx, wikiId);
  // Written around replaceChunks: every process's in-memory index of the wiki reads it again.
  await resetChunkLog(tx, wikiId);
}

/** The pages, their first revisions and links, as `insertPage`, `insertRevision`, links do. */
async function insertPages(tx: Db, wikiId: string, batch: PreparedPage[]): Promise<number[]> {
  const rows = batch.map((p, i) => ({
    i,
    path: p.path,
    path_key: pathKey(p.path),
    name_key: nameKey(p.path),
    title: p.parsed.title,
    markdown: p.markdown,
    content_hash: p.parsed.contentHash,
  }));
  const inserted = await tx<{ id: number; path_key: string }>`
    INSERT INTO pages (wiki_id, path, path_key, name_key, title, markdown, revision, content_hash)
    SELECT ${wikiId}, r.path, r.path_key, r.name_key, r.title, r.markdown, 1, r.content_hash
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb)
      AS r(i int, path text, path_key text, name_key text, title text, markdown text, content_hash text)
    ORDER BY r.i
    RETURNING id, path_key`;
  const idOf = new Map(inserted.map((r) => [r.path_key, r.id]));
  const ids = rows.map((r) => idOf.get(r.path_key)!);
  await tx`
    INSERT INTO page_revisions
      (page_id, revision, wiki_id, action, path, title, markdown, content_hash, author_account_id, source)
    SELECT id, revision, wiki_id, 'create', path, title, markdown, content_hash, NULL, 'import'
    FROM pages WHERE id = ANY(${ids}::bigint[])`;
  for (const [i, p] of batch.entries()) {
    if (p.parsed.links.length === 0) continue;
    await replaceLinks(tx, wikiId, ids[i]!, p.parsed.links);
    await resolveLinks(tx, wikiId, ids[i]!, []);
  }
  // Links anywhere in the wiki that name one of the new pages now reach it.
  await resolveLinks(tx, wikiId, null, rows.flatMap((r) => [r.path_key, r.name_key]));
  return ids;
}

/** The chunk rows of pages with their vectors, as `replaceChunks` inserts them. */
function chunkRows(batch: PreparedPage[], ids: number[]) {
  return batch.flatMap((p, i) =>
    p.prepared.chunks.map((c) => ({
      page_id: ids[i],
      base_key: p.basePath === undefined ? null : pathKey(p.basePath),
      ord: c.ord,
      heading_path: c.headingPath,
      anchor: c.anchor,
      heading_text: c.headingText,
      text: c.text,
      embedder: c.embedding ? p.prepared.embedder : null,
      embedding: c.embedding ? `[${c.embedding.join(",")}]` : null,
    }))
  );
}

async function insertChunks(tx: Db, wikiId: string, batch: PreparedPage[], ids: number[]) {
  if (batch.length === 0) return;
  await tx`
    INSERT INTO chunks (page_id, wiki_id, ord, heading_path, anchor, heading_text, text, embedder, embedding)
    SELECT r.page_id, ${wikiId}, r.ord, ARRAY(SELECT jsonb_array_elements_text(r.heading_path)),
      r.anchor, r.heading_text, r.text, r.embedder, r.embedding::vector
    FROM jsonb_to_recordset(${JSON.stringify(chunkRows(batch, ids))}::text::jsonb)
      AS r(page_id bigint, ord int, heading_path jsonb, anchor text, heading_text text, text text,
           embedder text, embedding text)
    ORDER BY r.page_id, r.ord`;
}

/** The statement of `indexChunkTerms` (src/search/store.ts), for many pages at once. */
async function indexChunkTerms(tx: Db, wikiId: string, ids: number[]) {
  await tx`
    WITH t AS (
      SELECT c.id AS chunk_id, x.term, x.h, x.b
      FROM chunks c
      CROSS JOIN LATERAL (
        SELECT u.lexeme AS term, sum(u.h)::int AS h, sum(u.b)::int AS b
        FROM (
          SELECT lexeme, cardinality(positions) AS h, 0 AS b
          FROM unnest(to_tsvector('english', c.heading_text))
          UNION ALL
          SELECT lexeme, 0, cardinality(positions) FROM unnest(to_tsvector('english', c.text))
        ) u
        GROUP BY u.lexeme
      ) x
      WHERE c.page_id = ANY(${ids}::bigint[])
    ), len AS (
      UPDATE chunks c SET length = s.len
      FROM (SELECT chunk_id, sum(h + b)::int AS len FROM t GROUP BY chunk_id) s
      WHERE c.id = s.chunk_id
      RETURNING c.id, c.length
    ), postings AS (
      INSERT INTO chunk_terms (wiki_id, term, chunk_id, tf_heading, tf_body, length)
      SELECT ${wikiId}, t.term, t.chunk_id, least(t.h, 32767), least(t.b, 32767), len.length
      FROM t JOIN len ON len.id = t.chunk_id
      RETURNING term
    ), df AS (
      INSERT INTO term_stats (wiki_id, term, df)
      SELECT ${wikiId}, term, count(*)::int FROM postings GROUP BY term ORDER BY term
      ON CONFLICT (wiki_id, term) DO UPDATE SET df = term_stats.df + excluded.df
    )
    INSERT INTO search_stats (wiki_id, chunks, length_sum)
    SELECT ${wikiId}, (SELECT count(*) FROM chunks WHERE page_id = ANY(${ids}::bigint[])),
      (SELECT coalesce(sum(length), 0) FROM len)
    ON CONFLICT (wiki_id) DO UPDATE SET chunks = search_stats.chunks + excluded.chunks,
      length_sum = search_stats.length_sum + excluded.length_sum`;
}

/**
 * Copies' chunks: text and vector of their own, length and postings those of the same chunk
 * of the page they copy (same lexemes, same counts), then document frequencies and totals as
 * `indexChunkTerms` keeps them. Fails if a copy's chunks do not line up with its page's.
 */
async function copyChunks(tx: Db, wikiId: string, batch: PreparedPage[], ids: number[]) {
  const rows = chunkRows(batch, ids);
  const [row] = await tx<{ copied: number }>`
    WITH r AS (
      SELECT r.*, b.id AS base_id, b.length
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb)
        AS r(page_id bigint, base_key text, ord int, heading_path jsonb, anchor text,
             heading_text text, text text, embedder text, embedding text)
      JOIN pages bp ON bp.wiki_id = ${wikiId} AND bp.path_key = r.base_key
      JOIN chunks b ON b.page_id = bp.id AND b.ord = r.ord
    ), ins AS (
      INSERT INTO chunks
        (page_id, wiki_id, ord, heading_path, anchor, heading_text, text, embedder, embedding, length)
      SELECT r.page_id, ${wikiId}, r.ord, ARRAY(SELECT jsonb_array_elements_text(r.heading_path)),
        r.anchor, r.heading_text, r.text, r.embedder, r.embedding::vector, r.length
      FROM r ORDER BY r.page_id, r.ord
      RETURNING id, page_id, ord, length
    ), postings AS (
      INSERT INTO chunk_terms (wiki_id, term, chunk_id, tf_heading, tf_body, length)
      SELECT ${wikiId}, t.term, ins.id, t.tf_heading, t.tf_body, t.length
      FROM ins JOIN r ON r.page_id = ins.page_id AND r.ord = ins.ord
      JOIN chunk_terms t ON t.chunk_id = r.base_id
      RETURNING term
    ), df AS (
      INSERT INTO term_stats (wiki_id, term, df)
      SELECT ${wikiId}, term, count(*)::int FROM postings GROUP BY term ORDER BY term
      ON CONFLICT (wiki_id, term) DO UPDATE SET df = term_stats.df + excluded.df
    ), totals AS (
      INSERT INTO search_stats (wiki_id, chunks, length_sum)
      SELECT ${wikiId}, count(*), coalesce(sum(length), 0) FROM ins
      ON CONFLICT (wiki_id) DO UPDATE SET chunks = search_stats.chunks + excluded.chunks,
        length_sum = search_stats.length_sum + excluded.length_sum
    )
    SELECT count(*)::int AS copied FROM ins`;
  if (row!.copied !== rows.length) {
    throw new Error(
      `Only ${row!.copied} of ${rows.length} copied chunks match their page's chunks`,
    );
  }
}

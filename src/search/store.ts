import type { Db } from "../db/db.ts";
import { HYPHENATED_WHOLE, lexicalText } from "../text/terms.ts";

/** A chunk ready to store: its text, what BM25 weighs above it, and its vector if any. */
export type ChunkInput = {
  ord: number;
  headingPath: string[];
  anchor: string;
  headingText: string;
  text: string;
  embedding: Float32Array | null;
};

/**
 * Replaces a page's chunks and keeps the lexical index right: the old chunks' terms leave
 * the wiki's document frequencies and totals, the new ones' enter them. Runs inside the
 * page write's transaction, after the wiki row is locked (so df updates never interleave).
 */
export async function replaceChunks(
  tx: Db,
  wikiId: string,
  pageId: number,
  chunks: ChunkInput[],
  embedder: string | null,
): Promise<void> {
  await replaceChunksOfPages(tx, wikiId, [{ pageId, chunks }], embedder);
}

/**
 * `replaceChunks` for many pages of one wiki at once (bulk import): one statement removes the
 * old chunks, one writes the new ones with their postings, lengths and the wiki's statistics.
 */
export async function replaceChunksOfPages(
  tx: Db,
  wikiId: string,
  pages: { pageId: number; chunks: ChunkInput[] }[],
  embedder: string | null,
): Promise<void> {
  if (pages.length === 0) return;
  const pageIds = pages.map((p) => p.pageId);
  await deleteChunksOfPages(tx, wikiId, pageIds);
  const rows = pages.flatMap((p) =>
    p.chunks.map((c) => {
      const heading = lexicalText(c.headingText);
      const text = lexicalText(c.text);
      return {
        page_id: p.pageId,
        ord: c.ord,
        heading_path: c.headingPath,
        anchor: c.anchor,
        heading_text: c.headingText,
        text: c.text,
        // What the lexical index reads, sent only where it differs from the text (CJK).
        lex_heading: heading === c.headingText ? null : heading,
        lex_text: text === c.text ? null : text,
        embedding: c.embedding ? `[${c.embedding.join(",")}]` : null,
      };
    })
  );
  if (rows.length > 0) await insertChunks(tx, wikiId, rows, embedder);
  await logChunkChange(tx, wikiId, pageIds);
}

/**
 * Inserts chunks and indexes them in one statement, each chunk's text read once: term
 * frequencies from PostgreSQL's English stemming (the number of positions of a lexeme in the
 * tsvector of the heading text and of the text) go to `chunk_terms`, their sum is the chunk's
 * length (written with the row, not updated after), the wiki's document frequencies are
 * upserted in term order (so concurrent writers of different wikis never deadlock), and its
 * chunk count and total length change once for the whole batch.
 */
async function insertChunks(
  tx: Db,
  wikiId: string,
  rows: {
    page_id: number;
    ord: number;
    heading_path: string[];
    anchor: string;
    heading_text: string;
    text: string;
    lex_heading: string | null;
    lex_text: string | null;
    embedding: string | null;
  }[],
  embedder: string | null,
): Promise<void> {
  await tx`
    WITH r AS MATERIALIZED (
      SELECT r.*, to_tsvector('english', coalesce(r.lex_heading, r.heading_text)) AS hv,
        to_tsvector('english', coalesce(r.lex_text, r.text)) AS bv
      FROM jsonb_to_recordset(${JSON.stringify(rows.map((r, n) => ({ ...r, n })))}::text::jsonb)
        AS r(n int, page_id bigint, ord int, heading_path jsonb, anchor text, heading_text text,
          text text, lex_heading text, lex_text text, embedding text)
    ), t AS MATERIALIZED (
      SELECT r.page_id, r.ord, u.lexeme AS term, sum(u.h)::int AS h, sum(u.b)::int AS b
      FROM r CROSS JOIN LATERAL (
        SELECT lexeme, cardinality(positions) AS h, 0 AS b FROM unnest(r.hv)
        UNION ALL
        SELECT lexeme, 0, cardinality(positions) FROM unnest(r.bv)
      ) u
      GROUP BY r.page_id, r.ord, u.lexeme
    ), len AS MATERIALIZED (
      SELECT page_id, ord, sum(h + b)::int AS length FROM t GROUP BY page_id, ord
    ), c AS (
      INSERT INTO chunks (page_id, wiki_id, ord, heading_path, anchor, heading_text, text,
        embedder, embedding, length)
      SELECT r.page_id, ${wikiId}, r.ord, ARRAY(SELECT jsonb_array_elements_text(r.heading_path)),
        r.anchor, r.heading_text, r.text,
        CASE WHEN r.embedding IS NULL THEN NULL ELSE ${embedder}::text END, r.embedding::vector,
        coalesce(len.length, 0)
      FROM r LEFT JOIN len ON len.page_id = r.page_id AND len.ord = r.ord
      -- Ids in input order, as page by page: BM25 breaks ties by chunk id.
      ORDER BY r.n
      RETURNING id, page_id, ord, length
    ), postings AS (
      INSERT INTO chunk_terms (wiki_id, term, chunk_id, tf_heading, tf_body, length)
      SELECT ${wikiId}, t.term, c.id, least(t.h, 32767), least(t.b, 32767), c.length
      FROM t JOIN c ON c.page_id = t.page_id AND c.ord = t.ord
      -- In key order: each leaf page of the primary key is visited once per batch, not once
      -- per posting (a fifth of the statement's time).
      ORDER BY t.term, c.id
    ), df AS (
      INSERT INTO term_stats (wiki_id, term, df)
      SELECT ${wikiId}, term, count(*)::int FROM t GROUP BY term ORDER BY term
      ON CONFLICT (wiki_id, term) DO UPDATE SET df = term_stats.df + excluded.df
    )
    INSERT INTO search_stats (wiki_id, chunks, length_sum)
    SELECT ${wikiId}, (SELECT count(*) FROM r), (SELECT coalesce(sum(length), 0) FROM len)
    ON CONFLICT (wiki_id) DO UPDATE SET chunks = search_stats.chunks + excluded.chunks,
      length_sum = search_stats.length_sum + excluded.length_sum`;
}

/**
 * How many rows of `search_changes` a wiki keeps: past that, the log is cut and a process whose
 * copy of the index is older than the cut reads the wiki again instead of catching up.
 */
const CHANGE_LOG_LIMIT = 20_000;

/**
 * Gives the wiki's chunks a new version and logs the pages this write changed, in the writer's
 * transaction (after the wiki row is locked, so a wiki's versions follow its commit order).
 * Every process's in-memory index sees the new version with its next search and reloads these
 * pages (src/search/lexical_cache.ts).
 */
async function logChunkChange(tx: Db, wikiId: string, pageIds: number[]): Promise<void> {
  await tx`
    WITH v AS (SELECT nextval('search_version') AS v), bumped AS (
      INSERT INTO search_stats AS s (wiki_id, version, log_from, logged)
      SELECT ${wikiId}, v, v, 0 FROM v
      ON CONFLICT (wiki_id) DO UPDATE SET version = excluded.version,
        log_from = CASE WHEN s.logged + ${pageIds.length} > ${CHANGE_LOG_LIMIT}
          THEN excluded.version ELSE s.log_from END,
        logged = CASE WHEN s.logged + ${pageIds.length} > ${CHANGE_LOG_LIMIT}
          THEN 0 ELSE s.logged + ${pageIds.length} END
      RETURNING s.version, s.log_from
    ), cut AS (
      DELETE FROM search_changes c USING bumped b
      WHERE c.wiki_id = ${wikiId} AND c.version <= b.log_from
    )
    INSERT INTO search_changes (wiki_id, version, page_id)
    SELECT ${wikiId}, b.version, p FROM bumped b, unnest(${pageIds}::bigint[]) AS p
    WHERE b.version > b.log_from`;
}

/**
 * Marks every in-memory copy of a wiki's index as stale, to be read again in full: for writers
 * that change `chunk_terms` without `replaceChunks` (the benchmark's bulk loader).
 */
export async function resetChunkLog(tx: Db, wikiId: string): Promise<void> {
  await tx`
    WITH v AS (SELECT nextval('search_version') AS v), bumped AS (
      INSERT INTO search_stats AS s (wiki_id, version, log_from, logged)
      SELECT ${wikiId}, v, v, 0 FROM v
      ON CONFLICT (wiki_id) DO UPDATE SET version = excluded.version,
        log_from = excluded.version, logged = 0
    )
    DELETE FROM search_changes WHERE wiki_id = ${wikiId}`;
}

/** A wiki's lexical statistics for one query, with its index version (see `selectLexicalStats`). */
export type LexicalStats = {
  wiki_id: string;
  version: number;
  log_from: number;
  n: number;
  avgdl: number;
  terms: string[];
  dfs: number[];
  /** All the query's terms, in the wikis or not (a version may hold words the live pages lack). */
  query_terms: string[];
  /** The wiki's default version (src/versions), read here so a live search costs nothing more. */
  default_id: number | null;
  default_name: string | null;
  default_at: Date | null;
  /** The version `asked` names, when the wiki has it (one statement for a version's search). */
  asked_id: number | null;
  asked_name: string | null;
  asked_at: Date | null;
  /** The wiki's visibility, read in the same statement (the wiki endpoint admits a search by it). */
  visibility: string;
};

/**
 * For each given wiki that has chunks: the version of its lexical index, BM25's N and average
 * chunk length, and the query's terms (PostgreSQL's English lexemes, in the tsvector's order)
 * with their document frequencies. One cheap statement per search, which the in-memory index
 * needs anyway: it is how a process learns that its copy of a wiki is out of date. A hyphenated
 * word taken whole is left out when one of its parts is a query term too, as in `selectBm25`
 * (`HYPHENATED_WHOLE`), so the in-memory leg scores exactly the terms the SQL leg does. With
 * `asked`, each wiki's version of that name comes too: a version's search needs no statement of
 * its own to look it up. The wiki's visibility comes with them: the wiki endpoint needs no
 * statement of its own to know that a searched wiki is still public.
 */
export function selectLexicalStats(
  db: Db,
  wikiIds: string[],
  query: string,
  asked: string | null = null,
): Promise<LexicalStats[]> {
  return db<LexicalStats>`
    WITH lx AS (
      SELECT u.lexeme, u.i
      FROM unnest(to_tsvector('english', ${lexicalText(query)}::text))
        WITH ORDINALITY AS u(lexeme, positions, weights, i)
    ), q AS (
      SELECT lexeme AS term, i FROM lx
      WHERE NOT (lexeme ~ ${HYPHENATED_WHOLE}::text AND EXISTS (
        SELECT 1 FROM lx part WHERE part.lexeme = ANY(string_to_array(lx.lexeme, '-'))))
    )
    SELECT s.wiki_id, s.version::float8 AS version, s.log_from::float8 AS log_from,
      s.chunks::float8 AS n, s.length_sum::float8 / greatest(s.chunks, 1) AS avgdl,
      ARRAY(SELECT d.term FROM q JOIN term_stats d ON d.wiki_id = s.wiki_id AND d.term = q.term
        WHERE d.df > 0 ORDER BY q.i) AS terms,
      ARRAY(SELECT d.df FROM q JOIN term_stats d ON d.wiki_id = s.wiki_id AND d.term = q.term
        WHERE d.df > 0 ORDER BY q.i) AS dfs,
      ARRAY(SELECT q.term FROM q ORDER BY q.i) AS query_terms,
      dv.id::float8 AS default_id, dv.name AS default_name, dv.created_at AS default_at,
      (SELECT v.id FROM space_versions v WHERE v.wiki_id = s.wiki_id
        AND lower(v.name) = lower(${asked}::text))::float8 AS asked_id,
      (SELECT v.name FROM space_versions v WHERE v.wiki_id = s.wiki_id
        AND lower(v.name) = lower(${asked}::text)) AS asked_name,
      (SELECT v.created_at FROM space_versions v WHERE v.wiki_id = s.wiki_id
        AND lower(v.name) = lower(${asked}::text)) AS asked_at,
      w.visibility
    FROM search_stats s JOIN wikis w ON w.id = s.wiki_id
      LEFT JOIN space_versions dv ON dv.id = w.default_version_id
    WHERE s.wiki_id = ANY(${wikiIds}::text[])`;
}

/** A wiki's chunks as the in-memory index needs them: id, page and BM25 length. */
export function selectIndexedChunks(
  db: Db,
  wikiId: string,
): Promise<{ id: number; page_id: number; length: number }[]> {
  return db`SELECT id, page_id, length FROM chunks WHERE wiki_id = ${wikiId}`;
}

/**
 * A wiki's postings of the terms after `after` up to `upto` (in term order), each term's
 * postings packed into 8-byte big-endian records, base64: the chunk id less `base` (high 32
 * bits), tf_heading (16 bits), tf_body (16 bits). One int8 per posting aggregates and crosses
 * the wire fastest on both stores (half the time of three concatenated fields in hex on PGlite).
 * The caller keeps chunk id − `base` under 2^31.
 */
export function selectPackedPostings(
  db: Db,
  wikiId: string,
  after: string,
  upto: string,
  base: number,
): Promise<{ term: string; postings: string }[]> {
  return db`
    SELECT term, translate(encode(string_agg(
      int8send((chunk_id - ${base}::bigint) * 4294967296 + tf_heading * 65536 + tf_body),
      ''::bytea), 'base64'), chr(10), '') AS postings
    FROM chunk_terms
    WHERE wiki_id = ${wikiId} AND term > ${after} AND term <= ${upto}
    GROUP BY term`;
}

/** The last of the next `limit` terms of a wiki after `after` (term order), or null past the end. */
export async function selectTermAfter(
  db: Db,
  wikiId: string,
  after: string,
  limit: number,
): Promise<string | null> {
  const rows = await db<{ term: string | null }>`
    SELECT max(term) AS term FROM (
      SELECT term FROM term_stats WHERE wiki_id = ${wikiId} AND term > ${after}
      ORDER BY term LIMIT ${limit}
    ) t`;
  return rows[0]?.term ?? null;
}

/** The pages of a wiki whose chunks changed after `version` (from the change log). */
export async function selectChangedPages(
  db: Db,
  wikiId: string,
  version: number,
): Promise<number[]> {
  const rows = await db<{ page_id: number }>`
    SELECT DISTINCT page_id FROM search_changes WHERE wiki_id = ${wikiId} AND version > ${version}`;
  return rows.map((r) => r.page_id);
}

/** The chunks of the given pages with their postings, one row per posting (a chunk without
 * terms comes once, with a null term). */
export function selectPagePostings(db: Db, pageIds: number[]): Promise<
  {
    chunk_id: number;
    page_id: number;
    length: number;
    term: string | null;
    tf_heading: number;
    tf_body: number;
  }[]
> {
  return db`
    SELECT c.id AS chunk_id, c.page_id, c.length, p.term, coalesce(p.tf_heading, 0) AS tf_heading,
      coalesce(p.tf_body, 0) AS tf_body
    FROM chunks c LEFT JOIN chunk_terms p ON p.chunk_id = c.id
    WHERE c.page_id = ANY(${pageIds}::bigint[])`;
}

/**
 * Takes a page's chunks out of the wiki's document frequencies and totals and deletes them
 * (their postings go with them) in one statement, so every part reads the same snapshot; then
 * logs the change for the in-memory indexes (`logChunkChange`).
 */
export async function removeChunks(tx: Db, wikiId: string, pageId: number): Promise<void> {
  await removeChunksOfPages(tx, wikiId, [pageId]);
}

/** `removeChunks` for many pages of one wiki: the same two statements. */
export async function removeChunksOfPages(
  tx: Db,
  wikiId: string,
  pageIds: number[],
): Promise<void> {
  await deleteChunksOfPages(tx, wikiId, pageIds);
  await logChunkChange(tx, wikiId, pageIds);
}

async function deleteChunksOfPages(tx: Db, wikiId: string, pageIds: number[]): Promise<void> {
  await tx`
    WITH old AS (
      SELECT id, length FROM chunks WHERE page_id = ANY(${pageIds}::bigint[])
    ), df AS (
      UPDATE term_stats s SET df = s.df - o.n
      FROM (
        SELECT term, count(*)::int AS n FROM chunk_terms
        WHERE chunk_id IN (SELECT id FROM old)
        GROUP BY term
      ) o
      WHERE s.wiki_id = ${wikiId} AND s.term = o.term
    ), totals AS (
      UPDATE search_stats s SET chunks = s.chunks - o.n, length_sum = s.length_sum - o.len
      FROM (SELECT count(*) AS n, coalesce(sum(length), 0) AS len FROM old) o
      WHERE s.wiki_id = ${wikiId} AND o.n > 0
    )
    DELETE FROM chunks WHERE id IN (SELECT id FROM old)`;
}

/** A scored chunk from one leg of search; the in-memory lexical leg also knows its page. */
export type ChunkHit = { chunk_id: number; score: number; page_id?: number };

/** BM25 parameters: term-frequency saturation, length normalisation, heading weight. */
export type Bm25Params = { k1: number; b: number; headingWeight: number };

/**
 * The lexical leg: Okapi BM25 over the chunks of the given wikis, scored in SQL from the
 * postings, per-wiki document frequencies and average chunk length. Two fields, BM25F-style:
 * the body's term frequency is normalised by the chunk's length, the heading text's (title
 * and headings) is not, and counts `headingWeight` times; their sum is then saturated. A
 * heading is short whatever the section's length, so a long section named "Rate limits" keeps
 * its heading's weight instead of losing it to a short paragraph that mentions rate limits.
 * A hyphenated word counts by its parts, not also whole, when a part is left (`HYPHENATED_WHOLE`).
 */
export function selectBm25(
  db: Db,
  wikiIds: string[],
  query: string,
  params: Bm25Params,
  limit: number,
): Promise<ChunkHit[]> {
  return db<ChunkHit>`
    WITH lx AS (
      SELECT lexeme FROM unnest(to_tsvector('english', ${lexicalText(query)}::text))
    ), q AS (
      SELECT lexeme AS term FROM lx
      WHERE NOT (lexeme ~ ${HYPHENATED_WHOLE}::text AND EXISTS (
        SELECT 1 FROM lx part WHERE part.lexeme = ANY(string_to_array(lx.lexeme, '-'))))
    ), s AS (
      SELECT wiki_id, chunks::float8 AS n, length_sum::float8 / greatest(chunks, 1) AS avgdl
      FROM search_stats WHERE wiki_id = ANY(${wikiIds}::text[])
    ), w AS (
      SELECT d.wiki_id, d.term, ln(1 + (s.n - d.df + 0.5) / (d.df + 0.5)) AS idf, s.avgdl
      FROM q JOIN term_stats d ON d.term = q.term JOIN s ON s.wiki_id = d.wiki_id
      WHERE d.df > 0
    )
    SELECT p.chunk_id, sum(w.idf * x.tf * (${params.k1}::float8 + 1) / (x.tf + ${params.k1}::float8))::float8
      AS score
    FROM w
    JOIN chunk_terms p ON p.wiki_id = w.wiki_id AND p.term = w.term
    CROSS JOIN LATERAL (
      SELECT p.tf_body / (1 - ${params.b}::float8 + ${params.b}::float8 * p.length / w.avgdl)
        + ${params.headingWeight}::float8 * p.tf_heading AS tf
    ) x
    GROUP BY p.chunk_id
    ORDER BY score DESC, p.chunk_id
    LIMIT ${limit}`;
}

/** How many chunks the given wikis hold, from the totals kept by every write (no scan). */
export async function countChunks(db: Db, wikiIds: string[]): Promise<number> {
  const rows = await db<{ n: number }>`
    SELECT coalesce(sum(chunks), 0)::int AS n FROM search_stats WHERE wiki_id = ANY(${wikiIds}::text[])`;
  return rows[0]!.n;
}

/** The vector leg by exact scan: complete and fast for wikis of a few thousand chunks. */
export function selectNearestExact(
  db: Db,
  wikiIds: string[],
  embedder: string,
  vector: Float32Array,
  limit: number,
): Promise<ChunkHit[]> {
  return db<ChunkHit>`
    SELECT id AS chunk_id, (1 - (embedding <=> ${vector}::vector))::float8 AS score
    FROM chunks
    WHERE embedder = ${embedder} AND wiki_id = ANY(${wikiIds}::text[])
    ORDER BY embedding <=> ${vector}::vector, id
    LIMIT ${limit}`;
}

/**
 * The vector leg through the embedder's HNSW index. pgvector filters after the index scan,
 * so a wiki filter could starve the result: iterative scans (pgvector 0.8) keep scanning
 * until `limit` rows pass the filter. The filter is written `wiki_id || ''` so the planner
 * cannot trade the HNSW scan for a btree on wiki_id: the caller chose this path by size.
 */
export async function selectNearestIndexed(
  db: Db,
  index: { dimensions: number },
  wikiIds: string[],
  embedder: string,
  vector: Float32Array,
  limit: number,
): Promise<ChunkHit[]> {
  const d = index.dimensions;
  return await db.transaction(async (tx) => {
    // The wiki filter has no statistics, so the planner guesses that few rows pass it and
    // prefers a scan and top-N sort over the index: 840 ms instead of 4.5 ms at 100k chunks
    // (docs/performance.md). With sorting off for this transaction the index is its only way
    // to return rows in distance order.
    await tx`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true),
      set_config('hnsw.ef_search', ${String(Math.max(100, limit))}, true),
      set_config('hnsw.max_scan_tuples', '50000', true),
      set_config('enable_sort', 'off', true)`;
    return await tx.query<ChunkHit>(
      `SELECT id AS chunk_id, (1 - (embedding::vector(${d}) <=> $1::vector(${d})))::float8 AS score
       FROM chunks
       WHERE embedder = $2 AND (wiki_id || '') = ANY($3::text[])
       ORDER BY embedding::vector(${d}) <=> $1::vector(${d})
       LIMIT $4`,
      [vector, embedder, wikiIds, limit],
    );
  });
}

/**
 * A chunk with its page, as one search reads it: what results and answers show, and where the
 * page stands in a synced space (`synced`, with its revision's commit and the last sync). Only
 * the chunks whose text was asked for come whole; of the others only the page (`page_id`,
 * `path`), the rest null: the ranking needs the page of every candidate, the text of a few.
 * Exact title matches come back as rows with `exact` set (the page's first chunk, `text` null).
 */
export type ChunkCandidate = {
  chunk_id: number;
  page_id: number;
  wiki_id: string;
  path: string;
  title: string;
  revision: number;
  updated_at: Date;
  heading_path: string[];
  anchor: string;
  text: string | null;
  exact: number | null;
  synced: boolean;
  source_commit: string | null;
  last_synced_at: Date | null;
};

/**
 * Everything a search reads after its lexical leg, in one statement: for `textIds`, the chunk
 * with its page and the page's source freshness; for the other `chunkIds` (candidates whose page
 * the in-memory index did not give: the vector leg's, the SQL leg's), the page's id and path
 * alone (other fields null); then, when `exact` is given, up to 5 pages of the wikis whose title, path or last path segment equals the query
 * (`exact` = their rank, title matches first, shorter paths first), each with its first chunk.
 */
export function selectChunkCandidates(
  db: Db,
  chunkIds: number[],
  textIds: number[],
  exact: { wikiIds: string[]; query: string; key: string } | null,
): Promise<ChunkCandidate[]> {
  const e = exact ?? { wikiIds: [], query: "", key: "" };
  return db<ChunkCandidate>`
    SELECT c.id AS chunk_id, p.id AS page_id, p.wiki_id, p.path, p.title, p.revision,
      p.updated_at, c.heading_path, c.anchor, c.text, NULL::int AS exact,
      g.wiki_id IS NOT NULL AS synced,
      CASE WHEN g.wiki_id IS NOT NULL THEN (SELECT r.source_commit FROM page_revisions r
        WHERE r.page_id = p.id AND r.revision = p.revision) END AS source_commit,
      g.last_synced_at
    FROM chunks c JOIN pages p ON p.id = c.page_id
    LEFT JOIN git_sources g ON g.wiki_id = p.wiki_id
    WHERE c.id = ANY(${textIds}::bigint[])
    UNION ALL
    -- The other candidates: their page, to group chunks into pages (the rest is not read).
    SELECT c.id, c.page_id, p.wiki_id, p.path, NULL, NULL, NULL, NULL, NULL, NULL, NULL, false,
      NULL, NULL
    FROM chunks c JOIN pages p ON p.id = c.page_id
    WHERE c.id = ANY(${chunkIds}::bigint[]) AND c.id <> ALL(${textIds}::bigint[])
    UNION ALL
    SELECT (SELECT f.id FROM chunks f WHERE f.page_id = x.id ORDER BY f.ord LIMIT 1), x.id,
      x.wiki_id, x.path, x.title, x.revision, x.updated_at, NULL, NULL, NULL, x.exact::int,
      false, NULL, NULL
    FROM (
      SELECT p.*, row_number() OVER (
        ORDER BY (lower(p.title) = lower(${e.query})) DESC, length(p.path), p.id) AS exact
      FROM pages p
      WHERE p.wiki_id = ANY(${e.wikiIds}::text[])
        AND (lower(p.title) = lower(${e.query}) OR p.path_key = ${e.key} OR p.name_key = ${e.key})
      ORDER BY exact
      LIMIT 5
    ) x`;
}

/** Up to `limit` chunks the embedder has not embedded, for re-indexing. */
export function selectStaleChunks(
  db: Db,
  embedder: string,
  wikiId: string | null,
  limit: number,
): Promise<{ id: number; heading_text: string; text: string }[]> {
  return db`
    SELECT id, heading_text, text FROM chunks
    WHERE embedder IS DISTINCT FROM ${embedder} AND (${wikiId}::text IS NULL OR wiki_id = ${wikiId})
    ORDER BY id
    LIMIT ${limit}`;
}

/** Stores vectors for chunks, tagged with their embedder. */
export async function updateEmbeddings(
  db: Db,
  embedder: string,
  rows: { id: number; embedding: Float32Array }[],
): Promise<void> {
  const json = rows.map((r) => ({ id: r.id, embedding: `[${r.embedding.join(",")}]` }));
  await db`
    UPDATE chunks c SET embedding = r.embedding::vector, embedder = ${embedder}
    FROM jsonb_to_recordset(${JSON.stringify(json)}::text::jsonb) AS r(id bigint, embedding text)
    WHERE c.id = r.id`;
}

/**
 * Pages with chunks indexed before other scripts were: text in a CJK script (then indexed as
 * whole runs, now as bigrams). `cjk` is a regular-expression bracket of the CJK ranges.
 */
export function selectPagesToReindexScripts(
  db: Db,
  wikiId: string | null,
  cjk: string,
): Promise<{ id: number; wiki_id: string }[]> {
  return db`
    SELECT DISTINCT c.page_id AS id, c.wiki_id FROM chunks c
    WHERE (${wikiId}::text IS NULL OR c.wiki_id = ${wikiId})
      AND (c.heading_text || ' ' || c.text) ~ ${cjk}
    ORDER BY c.page_id`;
}

/** Pages (of one wiki, or all) after `afterId` in id order, with what parsing them needs. */
export function selectPagesAfter(
  db: Db,
  wikiId: string | null,
  afterId: number,
  limit: number,
): Promise<
  { id: number; wiki_id: string; path: string; title: string; markdown: string; hash: string }[]
> {
  return db`
    SELECT id::int AS id, wiki_id, path, title, markdown, content_hash AS hash FROM pages
    WHERE (${wikiId}::text IS NULL OR wiki_id = ${wikiId}) AND id > ${afterId}
    ORDER BY id LIMIT ${limit}`;
}

/** A page's content hash now (under the wiki's write lock: whether it changed since read). */
export async function selectPageHash(db: Db, pageId: number): Promise<string | null> {
  const [row] = await db<
    { hash: string }
  >`SELECT content_hash AS hash FROM pages WHERE id = ${pageId}`;
  return row?.hash ?? null;
}

/** A page's chunks as stored, in order, for re-indexing them. */
export function selectPageChunks(
  db: Db,
  pageId: number,
): Promise<
  { ord: number; heading_path: string[]; anchor: string; heading_text: string; text: string }[]
> {
  return db`
    SELECT ord, heading_path, anchor, heading_text, text FROM chunks
    WHERE page_id = ${pageId} ORDER BY ord`;
}

/**
 * For each stemmed term of a query (PostgreSQL's English lexemes, as BM25 uses): its document
 * frequency across the given wikis, their chunk count, and which of `chunkIds` hold it. The
 * evidence behind `ask`'s verdict: does the best passage hold the question's rare terms? A
 * hyphenated word counts by its parts, not also whole, when a part is left (`HYPHENATED_WHOLE`,
 * as in `selectBm25`): "three-node" is `three` and `node` to search, and its whole form, in no
 * page that writes "three nodes", weighed as one more rare term the answer lacked.
 */
export function selectTermEvidence(
  db: Db,
  wikiIds: string[],
  query: string,
  chunkIds: number[],
): Promise<{ term: string; df: number; n: number; chunks: number[] }[]> {
  return db`
    WITH lx AS (SELECT DISTINCT lexeme
      FROM unnest(to_tsvector('english', ${lexicalText(query)}::text))),
    q AS (SELECT lexeme AS term FROM lx
      WHERE NOT (lexeme ~ ${HYPHENATED_WHOLE}::text AND EXISTS (
        SELECT 1 FROM lx part WHERE part.lexeme = ANY(string_to_array(lx.lexeme, '-')))))
    SELECT q.term,
      coalesce((SELECT sum(df) FROM term_stats d
        WHERE d.term = q.term AND d.wiki_id = ANY(${wikiIds}::text[])), 0)::int AS df,
      coalesce((SELECT sum(chunks) FROM search_stats s
        WHERE s.wiki_id = ANY(${wikiIds}::text[])), 0)::int AS n,
      ARRAY(SELECT p.chunk_id::int FROM chunk_terms p
        WHERE p.wiki_id = ANY(${wikiIds}::text[]) AND p.term = q.term
          AND p.chunk_id = ANY(${chunkIds}::bigint[])) AS chunks
    FROM q`;
}

/**
 * Each page's headings in a wiki, once per anchor, in page and reading order: the dictionary of
 * search as you type (`matchTitles`). The page's own title (an empty heading path) is left
 * out: the wiki's navigation gives it. At most `limit` rows.
 */
export function selectHeadings(
  db: Db,
  wikiId: string,
  limit = 5000,
): Promise<{ path: string; title: string; heading: string; anchor: string }[]> {
  return db`
    SELECT path, title, heading, anchor FROM (
      SELECT DISTINCT ON (p.path, c.anchor) p.path, p.title, c.ord,
        c.heading_path[array_length(c.heading_path, 1)] AS heading, c.anchor
      FROM chunks c JOIN pages p ON p.id = c.page_id
      WHERE c.wiki_id = ${wikiId} AND array_length(c.heading_path, 1) > 0 AND c.anchor <> ''
      ORDER BY p.path, c.anchor, c.ord
    ) h
    ORDER BY path, ord
    LIMIT ${limit}`;
}

/**
 * Words of the wikis' text that begin with `word`, or have its length give or take one and share
 * its first or last three letters: the candidates of a half-typed or mistyped word, which
 * `expandQuery` narrows to one edit. Read from the text at each call (no pg_trgm: PGlite has
 * none), so only for the few words of a query typed into a search box. At most `limit`.
 */
export async function selectWordsLike(
  db: Db,
  wikiIds: string[],
  word: string,
  limit = 50,
): Promise<string[]> {
  const rows = await db<{ w: string }>`
    SELECT DISTINCT w FROM chunks c,
      regexp_split_to_table(lower(c.heading_text || ' ' || c.text), '[^[:alnum:]]+') AS w
    WHERE c.wiki_id = ANY(${wikiIds}::text[]) AND (
      w LIKE ${word} || '%' OR (length(w) BETWEEN ${word.length - 1} AND ${word.length + 1}
        AND (left(w, 3) = left(${word}, 3) OR right(w, 3) = right(${word}, 3))))
    LIMIT ${limit}`;
  return rows.map((r) => r.w);
}

/**
 * The term frequencies of texts as the lexical index counts them (PostgreSQL's English
 * lexemes, in the heading text and in the body), without storing anything: the postings of a
 * version's chunks that the live index no longer holds. One row per (text, term).
 */
export function selectTextTerms(
  db: Db,
  texts: { heading: string; body: string }[],
): Promise<{ n: number; term: string; h: number; b: number }[]> {
  return db`
    SELECT r.n, u.lexeme AS term, sum(u.h)::int AS h, sum(u.b)::int AS b
    FROM jsonb_to_recordset(${JSON.stringify(texts.map((t, n) => ({ ...t, n })))}::text::jsonb)
      AS r(n int, heading text, body text)
    CROSS JOIN LATERAL (
      SELECT lexeme, cardinality(positions) AS h, 0 AS b
      FROM unnest(to_tsvector('english', r.heading))
      UNION ALL
      SELECT lexeme, 0, cardinality(positions) FROM unnest(to_tsvector('english', r.body))
    ) u
    GROUP BY r.n, u.lexeme`;
}

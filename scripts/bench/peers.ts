import { DatabaseSync } from "node:sqlite";
import { create, insertMultiple, search } from "npm:@orama/orama@3.1.18";
import MiniSearch from "npm:minisearch@7.2.0";
import type { Db } from "../../src/db/db.ts";
import type { Embedder } from "../../src/lib/embedder.ts";
import { stem, STOPWORDS, tokenize } from "../../src/text/terms.ts";

/** A peer engine under test: the page paths it ranks for a query, best first. */
export type RankPaths = (query: string) => Promise<string[]>;

/** How a `ts_rank` peer builds its query: all terms (websearch syntax) or any term. */
export type TsQueryMode = "websearch" | "any";

/**
 * What a wiki's built-in PostgreSQL search typically is: a stored `tsvector` of title and
 * text ('english' configuration) with a GIN index, matched with `@@` and ordered by
 * `ts_rank`. Built in a bench-only table over the wiki's chunks (its own rows, untouched).
 */
export async function createTsRankIndex(db: Db, wikiId: string): Promise<void> {
  await db.exec(`CREATE TABLE IF NOT EXISTS peer_fts (
    chunk_id bigint PRIMARY KEY, wiki_id text NOT NULL, path text NOT NULL, tsv tsvector NOT NULL)`);
  await db`
    INSERT INTO peer_fts (chunk_id, wiki_id, path, tsv)
    SELECT c.id, c.wiki_id, p.path, to_tsvector('english', c.heading_text || ' ' || c.text)
    FROM chunks c JOIN pages p ON p.id = c.page_id
    WHERE c.wiki_id = ${wikiId}
    ON CONFLICT (chunk_id) DO NOTHING`;
  await db.exec(`CREATE INDEX IF NOT EXISTS peer_fts_tsv ON peer_fts USING gin (tsv);
    CREATE INDEX IF NOT EXISTS peer_fts_wiki ON peer_fts (wiki_id); ANALYZE peer_fts`);
}

/**
 * The `ts_rank` peer: `websearch_to_tsquery` (every term must match, as a search box
 * does), or the same lexemes joined with `|` (any term), best 10 pages.
 */
export function tsRankSearch(db: Db, wikiId: string, mode: TsQueryMode): RankPaths {
  return async (query) => {
    const rows = mode === "websearch"
      ? await db<{ path: string }>`
        SELECT f.path FROM peer_fts f, websearch_to_tsquery('english', ${query}) q
        WHERE f.wiki_id = ${wikiId} AND f.tsv @@ q
        ORDER BY ts_rank(f.tsv, q) DESC, f.chunk_id LIMIT 10`
      : await db<{ path: string }>`
        SELECT f.path
        FROM peer_fts f,
          (SELECT replace(plainto_tsquery('english', ${query})::text, ' & ', ' | ')::tsquery AS q) x
        WHERE f.wiki_id = ${wikiId} AND f.tsv @@ x.q
        ORDER BY ts_rank(f.tsv, x.q) DESC, f.chunk_id LIMIT 10`;
    return [...new Set(rows.map((r) => r.path))];
  };
}

/** A chunk as the Orama peer indexes it: the same text and vector as ours. */
export type PeerChunk = { path: string; heading_text: string; text: string };

/**
 * The Orama peer (`@orama/orama`, in process): one document per chunk with its heading text
 * (boosted ×2, as our BM25 weighs it), its text (English stemming, our stopwords: without
 * them Orama's prefix matching lets "in" score every "in…" word) and the offline embedder's
 * vector of the same text our index stores. Orama matches each query word as a prefix
 * (search as you type); that cannot be turned off (`exact` means a phrase filter). `fulltext` is Orama's BM25;
 * `hybrid` adds its vector search, fused by Orama with our weights (max-normalised
 * weighted sum, as ours), so the engines differ and the inputs do not.
 */
export async function createOramaPeer(chunks: PeerChunk[], embedder: Embedder) {
  const d = embedder.dimensions;
  const db = create({
    schema: {
      path: "string",
      heading: "string",
      text: "string",
      embedding: `vector[${d}]`,
    } as const,
    components: { tokenizer: { stemming: true, language: "english", stopWords: [...STOPWORDS] } },
  });
  const docs: { path: string; heading: string; text: string; embedding: number[] }[] = [];
  for (let i = 0; i < chunks.length; i += 256) {
    const slice = chunks.slice(i, i + 256);
    const vectors = await embedder.embed(slice.map((c) => `${c.heading_text}\n\n${c.text}`));
    slice.forEach((c, j) =>
      docs.push({
        path: c.path,
        heading: c.heading_text,
        text: c.text,
        embedding: [...vectors[j]!],
      })
    );
  }
  await insertMultiple(db, docs, 1000);
  const paths = (hits: { document: { path: string } }[]) => [
    ...new Set(hits.map((h) => h.document.path)),
  ];
  const weights = { text: 0.94, vector: 0.06 };
  return {
    fulltext: (async (query) =>
      paths(
        (await search(db, {
          term: query,
          properties: ["heading", "text"],
          boost: { heading: 2 },
          limit: 10,
        })).hits,
      )) as RankPaths,
    hybrid: (async (query) => {
      const [vector] = await embedder.embed([query]);
      return paths(
        (await search(db, {
          mode: "hybrid",
          term: query,
          properties: ["heading", "text"],
          boost: { heading: 2 },
          vector: { value: [...vector!], property: "embedding" },
          similarity: 0,
          hybridWeights: weights,
          limit: 10,
        })).hits,
      );
    }) as RankPaths,
  };
}

/** How many chunks an in-process peer returns before its paths are cut to the best 10. */
const PEER_CHUNKS = 20;

const bestPaths = (paths: string[]) => [...new Set(paths)].slice(0, 10);

/**
 * The SQLite FTS5 peer (`node:sqlite`, in memory): one row per chunk, heading text and text
 * columns, the `porter unicode61` tokenizer, ranked by FTS5's `bm25()` with the heading column
 * weighted 2 (as ours). The query's words are quoted and joined with OR (BM25 ranks chunks that
 * hold any of them; FTS5's default AND would drop most of a claim's matches).
 */
export function createFts5Peer(chunks: PeerChunk[]): RankPaths {
  const db = new DatabaseSync(":memory:");
  db.exec(`CREATE VIRTUAL TABLE fts USING fts5(path UNINDEXED, heading, text,
    tokenize = 'porter unicode61')`);
  const insert = db.prepare("INSERT INTO fts (path, heading, text) VALUES (?, ?, ?)");
  db.exec("BEGIN");
  for (const c of chunks) insert.run(c.path, c.heading_text, c.text);
  db.exec("COMMIT");
  const select = db.prepare(
    `SELECT path FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, 0, 2.0, 1.0) LIMIT ${PEER_CHUNKS}`,
  );
  return (query) => {
    const words = [...new Set(tokenize(query))].map((w) => `"${w}"`);
    if (words.length === 0) return Promise.resolve([]);
    const rows = select.all(words.join(" OR ")) as { path: string }[];
    return Promise.resolve(bestPaths(rows.map((r) => r.path)));
  };
}

/**
 * The MiniSearch peer (`minisearch`, in process): one document per chunk, heading boosted ×2,
 * our tokenizer, stopwords and stemmer (MiniSearch has none of its own for English), any term
 * (OR), no prefix or fuzzy matching: its BM25+ ranking on the same terms as ours.
 */
export function createMiniSearchPeer(chunks: PeerChunk[]): RankPaths {
  const processTerm = (term: string) => STOPWORDS.has(term) ? null : stem(term);
  const index = new MiniSearch<{ id: number; path: string; heading: string; text: string }>({
    fields: ["heading", "text"],
    storeFields: ["path"],
    tokenize: (text) => tokenize(text),
    processTerm,
    searchOptions: { boost: { heading: 2 }, combineWith: "OR", prefix: false, fuzzy: false },
  });
  index.addAll(
    chunks.map((c, id) => ({ id, path: c.path, heading: c.heading_text, text: c.text })),
  );
  return (query) =>
    Promise.resolve(
      bestPaths(index.search(query).slice(0, PEER_CHUNKS).map((r) => r.path as string)),
    );
}

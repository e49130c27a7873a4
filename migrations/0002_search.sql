-- Hybrid retrieval: BM25 postings with per-wiki statistics, and embeddings for the vector leg.

-- The text BM25 weighs above the body: the page title and the chunk's heading path.
ALTER TABLE chunks ADD COLUMN heading_text text NOT NULL DEFAULT '';
-- Lexeme count of heading_text + text: BM25's document length.
ALTER TABLE chunks ADD COLUMN length integer NOT NULL DEFAULT 0;
-- The embedder that made `embedding` (null while not embedded): only vectors of the
-- configured embedder are searched, so a change of model never mixes two vector spaces.
ALTER TABLE chunks ADD COLUMN embedder text;
ALTER TABLE chunks ADD COLUMN embedding vector;
CREATE INDEX chunks_embedder ON chunks (embedder, wiki_id);

-- One row per (wiki, term, chunk): term frequencies in the heading text and in the body.
-- Terms are lexemes of PostgreSQL's 'english' text search configuration (Snowball stems).
CREATE TABLE chunk_terms (
  wiki_id text NOT NULL,
  term text NOT NULL,
  chunk_id bigint NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
  tf_heading smallint NOT NULL,
  tf_body smallint NOT NULL,
  length integer NOT NULL,
  PRIMARY KEY (wiki_id, term, chunk_id) INCLUDE (tf_heading, tf_body, length)
);
CREATE INDEX chunk_terms_chunk ON chunk_terms (chunk_id);

-- Document frequency of each term per wiki, kept in the page write's transaction.
CREATE TABLE term_stats (
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  term text NOT NULL,
  df integer NOT NULL,
  PRIMARY KEY (wiki_id, term) INCLUDE (df)
);

-- Chunk count and total length per wiki (BM25's N and average document length).
CREATE TABLE search_stats (
  wiki_id text PRIMARY KEY REFERENCES wikis (id) ON DELETE CASCADE,
  chunks bigint NOT NULL DEFAULT 0,
  length_sum bigint NOT NULL DEFAULT 0
);
INSERT INTO search_stats (wiki_id) SELECT id FROM wikis;

-- The embedders whose vectors are stored, with their size and HNSW index.
CREATE TABLE vector_indexes (
  embedder text PRIMARY KEY,
  dimensions integer NOT NULL,
  index_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

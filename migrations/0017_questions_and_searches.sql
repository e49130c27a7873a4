-- Questions assistants and people ask a wiki (MCP `ask`, REST `ask`, the web app's Ask page),
-- counted per day beside searches, reads and confirmed uses, and kept one row each for the
-- usage page: the questions asked and the coverage gaps (questions the wiki did not answer,
-- or answered only in part), grouped by `gap_key`. Kept 90 days (the usage page's longest
-- period): the writers prune older rows (src/usage/record_ask.ts). A question is its asker's
-- words, so it goes with its space: the foreign key cascades, and forget_deleted_wiki (0011)
-- needs no change.
ALTER TABLE usage_daily DROP CONSTRAINT usage_daily_kind_check;
ALTER TABLE usage_daily ADD CONSTRAINT usage_daily_kind_check
  CHECK (kind IN ('search', 'read', 'confirm', 'ask'));

CREATE TABLE ask_questions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  question text NOT NULL,
  coverage text NOT NULL CHECK (coverage IN ('supported', 'partial', 'unsupported')),
  -- similar questions share it: the missing page's path key, else the question's missing
  -- (or, failing those, all its) content terms, stemmed and sorted
  gap_key text NOT NULL,
  -- the page a writer would start from: the missing page's path, or the question's words
  gap_title text NOT NULL,
  -- the question words no passage held, as asked
  missing text[] NOT NULL DEFAULT '{}',
  -- where it was asked: 'mcp', 'rest' or 'web'
  via text NOT NULL CHECK (via IN ('mcp', 'rest', 'web')),
  client text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ask_questions_wiki ON ask_questions (wiki_id, created_at);

-- The searches themselves (MCP `search`, REST `GET …/search`), for the usage page's list of
-- searches made: the query, how many pages it found on its first page of results, where it
-- came from. Kept and deleted as the questions are.
CREATE TABLE search_queries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  query text NOT NULL,
  results integer NOT NULL,
  via text NOT NULL CHECK (via IN ('mcp', 'rest')),
  client text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX search_queries_wiki ON search_queries (wiki_id, created_at);

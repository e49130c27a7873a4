-- What assistants do in each wiki, counted per day for the usage page: searches, page reads
-- and confirmed uses (MCP tools and REST reads), by page and by client. One row per
-- (wiki, UTC day, kind, page, client) that one upsert per call adds to; page_uses keeps the
-- detail of each confirmed use (revision, question, note).
CREATE TABLE usage_daily (
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  day date NOT NULL,
  kind text NOT NULL CHECK (kind IN ('search', 'read', 'confirm')),
  -- null for searches (and for a page gone before it was counted)
  page_id bigint,
  -- the page's path when last counted, kept after the page is renamed or deleted
  page_path text,
  -- the client's name: an OAuth client's, or the User-Agent's first product without its
  -- version; '' when the caller gave none
  client text NOT NULL,
  count integer NOT NULL,
  CONSTRAINT usage_daily_key UNIQUE NULLS NOT DISTINCT (wiki_id, day, kind, page_id, client)
);

-- The confirmed uses recorded before this table existed.
INSERT INTO usage_daily (wiki_id, day, kind, page_id, page_path, client, count)
SELECT wiki_id, (created_at AT TIME ZONE 'UTC')::date, 'confirm', page_id, max(page_path),
  CASE WHEN client_name ~ '^[^[:space:]/]+/'
    THEN left(substring(client_name FROM '^([^[:space:]/]+)/'), 64)
    ELSE left(btrim(coalesce(client_name, '')), 64) END AS client,
  count(*)
FROM page_uses
GROUP BY wiki_id, (created_at AT TIME ZONE 'UTC')::date, page_id, client;

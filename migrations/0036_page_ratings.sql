-- "Was this page helpful?": a reader's yes or no on a page, with an optional comment, shown to
-- the space's members on its usage page beside what assistants reported.
CREATE TABLE page_ratings (
  id bigserial PRIMARY KEY,
  wiki_id text NOT NULL REFERENCES wikis(id) ON DELETE CASCADE,
  path text NOT NULL,
  helpful boolean NOT NULL,
  comment text CHECK (comment IS NULL OR length(comment) <= 1000),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX page_ratings_wiki_time ON page_ratings (wiki_id, created_at DESC);

-- The lexical index is also held in each server process's memory (src/search/lexical_cache.ts):
-- postings of a wiki read from chunk_terms once, then kept current. Every write of a wiki's
-- chunks takes a new version from this sequence in its transaction; a search reads the version
-- with the statistics it reads anyway and catches up when its copy is older. One sequence for
-- all wikis: a version is never reused, even by a wiki deleted and created again.
CREATE SEQUENCE search_version;

ALTER TABLE search_stats
  -- the version of the wiki's chunks: the last write's
  ADD COLUMN version bigint NOT NULL DEFAULT 0,
  -- search_changes holds every page changed after this version; a copy older than it rebuilds
  ADD COLUMN log_from bigint NOT NULL DEFAULT 0,
  -- rows of search_changes for this wiki (the log is cut when it grows past a bound)
  ADD COLUMN logged integer NOT NULL DEFAULT 0;

-- The pages whose chunks a write replaced or removed, by version: what a process reloads to
-- catch up from its version to the current one instead of reading the whole wiki again.
CREATE TABLE search_changes (
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  version bigint NOT NULL,
  page_id bigint NOT NULL,
  PRIMARY KEY (wiki_id, version, page_id)
);

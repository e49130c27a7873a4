-- Versions of a space (issue #31): named, immutable snapshots. A version is a row and a list of
-- (page, revision) pairs; the text stays in `page_revisions` and the live pages, never copied.
-- Its search index is the live index's chunks of the pages it shares with the live state, plus
-- the chunks of the revisions it pins that have since changed, read from `page_revisions` when
-- a search of the version needs them (docs/decisions.md, "Versions of a space").
CREATE TABLE space_versions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  -- letters, digits, `.`, `_`, `+`, `-`: no `/` or `@`, so that `/w/<id>@<name>/Page` parses
  name text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$' AND lower(name) <> 'latest'),
  -- the Git tag or branch a synced space published it from, and its commit
  source_ref text,
  source_commit text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (wiki_id, name)
);

-- The pages of a version: each page at the revision it had when the version was published.
CREATE TABLE version_pages (
  version_id bigint NOT NULL REFERENCES space_versions (id) ON DELETE CASCADE,
  page_id bigint NOT NULL,
  revision integer NOT NULL,
  -- the path key of the page at that revision (how a read in the version finds it)
  path_key text NOT NULL,
  PRIMARY KEY (version_id, path_key)
);
CREATE INDEX version_pages_page ON version_pages (version_id, page_id);

-- The version reads get when they name none (null: "latest", the live pages), and the Git
-- refs a sync publishes as versions (null: none), e.g. `v*` or `tags/v*`, `branches/release-*`.
ALTER TABLE wikis ADD COLUMN default_version_id bigint
  REFERENCES space_versions (id) ON DELETE SET NULL;
ALTER TABLE wikis ADD COLUMN version_pattern text;

-- A file replaced on purpose (or deleted) keeps its old bytes here, so nothing a user uploaded is
-- lost to a later upload: the version numbers of one name count up from 1.
CREATE TABLE attachment_versions (
  wiki_id text NOT NULL REFERENCES wikis(id) ON DELETE CASCADE,
  name text NOT NULL,
  version integer NOT NULL CHECK (version >= 1),
  content_type text NOT NULL,
  bytes bytea NOT NULL,
  size integer NOT NULL CHECK (size >= 0),
  sha256 text NOT NULL,
  created_by text REFERENCES accounts(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  -- when these bytes stopped being the file's (a replace or a delete), and by whom
  retired_at timestamptz NOT NULL DEFAULT now(),
  retired_by text REFERENCES accounts(id) ON DELETE SET NULL,
  PRIMARY KEY (wiki_id, name, version)
);

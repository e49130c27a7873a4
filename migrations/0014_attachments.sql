-- Images and files of a wiki, stored in the database (so a deployment without a disk, such as
-- Deno Deploy, keeps them) and deleted with their wiki.
CREATE TABLE attachments (
  wiki_id text NOT NULL REFERENCES wikis(id) ON DELETE CASCADE,
  -- the file name in the wiki's `-/files/` space: letters, digits, `.`, `-`, `_`
  name text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$'),
  content_type text NOT NULL,
  bytes bytea NOT NULL,
  size integer NOT NULL CHECK (size >= 0),
  -- hex SHA-256 of the bytes: the ETag, and how an identical upload is recognised
  sha256 text NOT NULL,
  created_by text REFERENCES accounts(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (wiki_id, name)
);

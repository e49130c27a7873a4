-- The content model: accounts, teams, wikis, pages with their revisions, links and chunks,
-- and the record of pages assistants confirmed using.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE accounts (
  id text PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL DEFAULT '',
  -- null: the account cannot sign in with a password (made by an operator command)
  password_hash text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email));

CREATE TABLE teams (
  id text PRIMARY KEY CHECK (id ~ '^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$'),
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  team_id text NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, account_id)
);
CREATE INDEX memberships_account ON memberships (account_id);

CREATE TABLE wikis (
  id text PRIMARY KEY CHECK (id ~ '^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$'),
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  visibility text NOT NULL CHECK (visibility IN ('public', 'private')),
  -- at most one owner; none means the operator's own wiki (such as `docs`)
  owner_account_id text REFERENCES accounts (id) ON DELETE CASCADE,
  owner_team_id text REFERENCES teams (id) ON DELETE CASCADE,
  instructions text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (num_nonnulls(owner_account_id, owner_team_id) <= 1)
);
CREATE INDEX wikis_owner_account ON wikis (owner_account_id);
CREATE INDEX wikis_owner_team ON wikis (owner_team_id);
CREATE INDEX wikis_public ON wikis (id) WHERE visibility = 'public';

CREATE TABLE pages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  path text NOT NULL,
  -- lower case, `_` as space: how links and lookups find the page
  path_key text NOT NULL,
  -- the last segment of path_key, so that [[Setup]] finds Guides/Setup
  name_key text NOT NULL,
  title text NOT NULL,
  markdown text NOT NULL,
  revision integer NOT NULL,
  content_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (wiki_id, path_key)
);
CREATE INDEX pages_name ON pages (wiki_id, name_key);
CREATE INDEX pages_updated ON pages (wiki_id, updated_at);

-- Every revision of every page, kept after the page is renamed or deleted.
CREATE TABLE page_revisions (
  page_id bigint NOT NULL,
  revision integer NOT NULL,
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  action text NOT NULL CHECK (action IN ('create', 'update', 'rename', 'delete')),
  path text NOT NULL,
  title text NOT NULL,
  markdown text NOT NULL,
  content_hash text NOT NULL,
  author_account_id text,
  source text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (page_id, revision)
);
CREATE INDEX page_revisions_wiki ON page_revisions (wiki_id, created_at);

CREATE TABLE links (
  from_page_id bigint NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  position integer NOT NULL,
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('wikilink', 'markdown')),
  target text NOT NULL,
  target_key text NOT NULL,
  section text,
  label text,
  -- null while the target page does not exist
  to_page_id bigint REFERENCES pages (id) ON DELETE SET NULL,
  PRIMARY KEY (from_page_id, position)
);
CREATE INDEX links_target ON links (wiki_id, target_key);
CREATE INDEX links_to_page ON links (to_page_id);

CREATE TABLE chunks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  page_id bigint NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  ord integer NOT NULL,
  heading_path text[] NOT NULL,
  anchor text NOT NULL,
  text text NOT NULL,
  UNIQUE (page_id, ord)
);
CREATE INDEX chunks_wiki ON chunks (wiki_id);

-- What assistants confirmed using (MCP `confirm_use`); kept after a page is deleted.
CREATE TABLE page_uses (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  page_id bigint NOT NULL,
  page_path text NOT NULL,
  revision integer NOT NULL,
  account_id text,
  credential_kind text,
  credential_id text,
  client_name text,
  query text,
  note text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX page_uses_wiki ON page_uses (wiki_id, created_at);
CREATE INDEX page_uses_page ON page_uses (page_id);

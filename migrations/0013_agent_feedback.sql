-- Agents that give back: problem reports, proposed edits reviewed by people, token scopes.

-- What assistants reported wrong with a page (MCP `report_problem`, REST `/reports`).
CREATE TABLE page_reports (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  page_path text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('wrong', 'outdated', 'missing', 'unclear')),
  note text NOT NULL,
  -- who sent it: null account for an anonymous report on a public wiki
  account_id text REFERENCES accounts (id) ON DELETE SET NULL,
  credential_kind text,
  client_name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  resolved_by text REFERENCES accounts (id) ON DELETE SET NULL
);
CREATE INDEX page_reports_wiki ON page_reports (wiki_id, created_at);

-- Edits assistants proposed; a person accepts (a new revision) or declines them.
CREATE TABLE change_requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  page_path text NOT NULL,
  -- the revision the proposal starts from; 0 proposes a new page
  base_revision integer NOT NULL,
  markdown text NOT NULL,
  summary text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'declined', 'applied')),
  proposer_account_id text REFERENCES accounts (id) ON DELETE SET NULL,
  credential_kind text NOT NULL,
  credential_id text NOT NULL,
  client_name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  decided_by text REFERENCES accounts (id) ON DELETE SET NULL,
  decision_note text,
  -- the revision an accept (or a direct write) made
  result_revision integer
);
CREATE INDEX change_requests_wiki ON change_requests (wiki_id, status, created_at);

-- Who proposed a revision and through which client, when an agent's proposal made it.
ALTER TABLE page_revisions ADD COLUMN proposed_by_account_id text;
ALTER TABLE page_revisions ADD COLUMN proposed_client text;

-- Tokens read, or read and propose; existing tokens stay read-only. `direct_writes` (set by
-- the space's owner) lets a token's proposals apply at once.
ALTER TABLE tokens ADD COLUMN scope text NOT NULL DEFAULT 'read'
  CHECK (scope IN ('read', 'read_propose'));
ALTER TABLE tokens ADD COLUMN direct_writes boolean NOT NULL DEFAULT false;

-- Whether assistants may propose edits to a space at all (on by default: every proposal
-- still waits for a person).
ALTER TABLE wikis ADD COLUMN agent_proposals boolean NOT NULL DEFAULT true;

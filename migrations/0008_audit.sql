-- The audit log: who used which credential on which space, for what, and when. One row per MCP
-- tool call made with a credential (`/mcp/`) and per REST request on `/api/v1/spaces/<id>/…`.
-- Owners and admins of a space read its rows at `/w/<id>/-/audit`; rows older than
-- AUDIT_RETENTION_DAYS are pruned by the writers (src/audit/record_audit.ts).
--
-- No foreign keys: an insert must not lock the space's row on every call (a key-share lock per
-- tool call would contend with page writes), and the record outlives the token it names.
CREATE TABLE audit_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  -- the space acted on; null when the call named none, or one the credential does not reach
  wiki_id text,
  account_id text NOT NULL,
  credential_kind text NOT NULL CHECK (credential_kind IN ('account_token', 'space_token', 'oauth')),
  -- the token's id, or the OAuth grant's: never the secret
  credential_id text NOT NULL,
  -- an OAuth client's name, or the caller's User-Agent
  client_name text,
  channel text NOT NULL CHECK (channel IN ('mcp', 'rest')),
  -- the tool's name, or the REST operation (`write_page`, `import`…)
  action text NOT NULL,
  -- the page the call named, when it named one
  target text,
  -- `ok`, or the error's code (`page_not_found`, `forbidden`…)
  outcome text NOT NULL,
  request_id text
);
CREATE INDEX audit_events_wiki ON audit_events (wiki_id, id);
CREATE INDEX audit_events_at ON audit_events (at);

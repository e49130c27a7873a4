-- The service's own OAuth 2.1 authorization server for the private MCP endpoint. Every
-- secret (client secrets, codes, access and refresh tokens) is kept only as a SHA-256 hash.

-- Clients: registered through DCR (RFC 7591, a random id) or known by the URL of their
-- Client ID Metadata Document (CIMD, the URL is the id; the document is cached here).
CREATE TABLE oauth_clients (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('dcr', 'cimd')),
  name text NOT NULL,
  redirect_uris text[] NOT NULL,
  auth_method text NOT NULL
    CHECK (auth_method IN ('none', 'client_secret_post', 'client_secret_basic')),
  secret_hash text,
  -- the registration metadata as accepted, echoed back to the client
  metadata jsonb NOT NULL DEFAULT '{}',
  cimd_fetched_at timestamptz,
  cimd_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  CHECK ((auth_method = 'none') = (secret_hash IS NULL)),
  CHECK ((kind = 'cimd') = (cimd_expires_at IS NOT NULL))
);

-- A grant: one consent of an account to a client, for some spaces. Every token issued from it
-- (the token family) dies with it: revoking a connected app, reusing a code or reusing a
-- rotated-out refresh token sets revoked_at.
CREATE TABLE oauth_grants (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  space_ids text[] NOT NULL,
  scope text NOT NULL,
  resource text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX oauth_grants_account ON oauth_grants (account_id);

-- Authorization codes: single use, about a minute; grant_id is set when one is redeemed, so
-- a second redemption can revoke what the first one issued.
CREATE TABLE oauth_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  resource text NOT NULL,
  scope text NOT NULL,
  space_ids text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  grant_id text REFERENCES oauth_grants (id) ON DELETE CASCADE
);
CREATE INDEX oauth_codes_expires ON oauth_codes (expires_at);

-- Access tokens (`wk_oat_…`, one hour), stamped with the resource they were issued for.
CREATE TABLE oauth_access_tokens (
  token_hash text PRIMARY KEY,
  grant_id text NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  audience text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX oauth_access_tokens_grant ON oauth_access_tokens (grant_id);

-- Refresh tokens (`wk_ort_…`): rotated on every use; a rotated-out one presented again
-- revokes its grant (RFC 9700 §4.14.2).
CREATE TABLE oauth_refresh_tokens (
  token_hash text PRIMARY KEY,
  grant_id text NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  rotated_at timestamptz
);
CREATE INDEX oauth_refresh_tokens_grant ON oauth_refresh_tokens (grant_id);

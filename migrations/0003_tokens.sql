-- Account and space tokens: shown once, stored only as a SHA-256 hash.
CREATE TABLE tokens (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('account', 'space')),
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  -- the one space a space token opens; null for account tokens
  wiki_id text REFERENCES wikis (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- the first characters of the secret, so people can tell their tokens apart
  hint text NOT NULL,
  secret_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  expires_at timestamptz,
  revoked_at timestamptz,
  CHECK ((kind = 'space') = (wiki_id IS NOT NULL))
);
CREATE INDEX tokens_account ON tokens (account_id);

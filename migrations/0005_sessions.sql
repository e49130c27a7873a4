-- Browser sessions of the web app, and the failed sign-ins that rate-limit password guessing.

-- A session's id is a 256-bit secret held only in the browser's cookie; we keep its SHA-256,
-- so a copy of this table signs nobody in.
CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  user_agent text NOT NULL DEFAULT ''
);
CREATE INDEX sessions_account ON sessions (account_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

-- Failed sign-ins per key (`email:<lower-case email>` or `ip:<address>`) in a fixed window
-- that starts at the first failure; shared by every server process.
CREATE TABLE login_attempts (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  window_started_at timestamptz NOT NULL DEFAULT now()
);

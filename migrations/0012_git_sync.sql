-- Spaces synced from a Git repository: the connection, the sync jobs with their leases, and the
-- commit each revision came from.
ALTER TABLE page_revisions ADD COLUMN source_commit text;
ALTER TABLE page_revisions ADD COLUMN source_author text;

CREATE TABLE git_sources (
  wiki_id text PRIMARY KEY REFERENCES wikis (id) ON DELETE CASCADE,
  url text NOT NULL,
  branch text NOT NULL,
  folder text NOT NULL DEFAULT '',
  -- AES-GCM under SYNC_SECRET_KEY: base64 of the 12-byte IV followed by the ciphertext
  token_sealed text,
  -- the shared secret push webhooks sign with (GitHub/Gitea HMAC, GitLab token)
  webhook_secret text NOT NULL,
  -- null: no schedule, only on demand and from webhooks
  interval_minutes integer CHECK (interval_minutes BETWEEN 1 AND 10080),
  next_sync_at timestamptz,
  last_commit text,
  last_synced_at timestamptz,
  -- repository path -> blob id of each markdown file at last_commit (rename detection)
  files jsonb NOT NULL DEFAULT '{}',
  last_error text,
  failures integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX git_sources_due ON git_sources (next_sync_at) WHERE interval_minutes IS NOT NULL;

CREATE TABLE sync_jobs (
  id bigserial PRIMARY KEY,
  wiki_id text NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (reason IN ('manual', 'schedule', 'webhook')),
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  lease_owner text,
  lease_until timestamptz,
  result jsonb,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
-- one pending job per space: a push during a sync queues one more, not one per push
CREATE UNIQUE INDEX sync_jobs_pending ON sync_jobs (wiki_id) WHERE state IN ('queued', 'running');
CREATE INDEX sync_jobs_claim ON sync_jobs (state, lease_until);

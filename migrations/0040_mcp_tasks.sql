-- MCP tasks (the Tasks extension, for `ask`): a task started on one process is polled, fetched
-- and cancelled on any other, so its state lives here. `owner` is who may see it (the endpoint
-- for the public ones, the account or space token for the private one); rows are kept until
-- `expires_at` (the task's TTL from its creation), then deleted.
CREATE TABLE mcp_tasks (
  id text PRIMARY KEY,
  owner text NOT NULL,
  tool text NOT NULL,
  status text NOT NULL CHECK (status IN ('working', 'completed', 'failed', 'cancelled')),
  status_message text,
  result jsonb,
  error jsonb,
  ttl_ms integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX mcp_tasks_owner ON mcp_tasks (owner, created_at DESC, id);
CREATE INDEX mcp_tasks_expires ON mcp_tasks (expires_at);

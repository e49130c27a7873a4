-- Read-your-writes with read replicas: the primary's WAL position after a caller's last write
-- (keyed as the request budget is: account:<id> or token:<id>). Until a replica has replayed
-- past it, that caller's reads go to the primary (src/db/replicas.ts).
CREATE TABLE read_marks (
  key text PRIMARY KEY,
  lsn pg_lsn NOT NULL,
  marked_at timestamptz NOT NULL DEFAULT now()
);

import type { Db } from "../db/db.ts";

/**
 * Counts `amount` requests (one by default) against `key` and returns the count and when its
 * window opened. A window opens at a key's first request and lasts `windowSeconds`; the next
 * request after it opens a new one. One atomic upsert, so concurrent processes share the count
 * exactly.
 */
export async function countRequest(
  db: Db,
  key: string,
  windowSeconds: number,
  amount = 1,
): Promise<{ count: number; window_started_at: Date; now: Date }> {
  // Committed without waiting for the WAL flush (synchronous_commit off for this statement's
  // own transaction): a counter is not worth an fsync on every request, and a crash of the
  // database forgets at most the last ~0.6 s of counts (3 × wal_writer_delay), never corrupts.
  const rows = await db<{ count: number; window_started_at: Date; now: Date }>`
    INSERT INTO rate_limits AS r (key, window_started_at, count)
    SELECT ${key}::text, clock_timestamp(), ${amount}::int
    FROM (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN r.window_started_at > clock_timestamp() - make_interval(secs => ${windowSeconds})
        THEN r.count + ${amount} ELSE ${amount} END,
      window_started_at = CASE WHEN r.window_started_at > clock_timestamp() - make_interval(secs => ${windowSeconds})
        THEN r.window_started_at ELSE clock_timestamp() END
    RETURNING count, window_started_at, clock_timestamp() AS now`;
  return rows[0]!;
}

/** Drops counters whose window closed long ago. */
export async function deleteOldCounters(db: Db, olderThanSeconds: number): Promise<void> {
  await db`DELETE FROM rate_limits WHERE window_started_at < now() - make_interval(secs => ${olderThanSeconds})`;
}

import type { Db } from "./db.ts";

/**
 * Records that `key` (a caller) has just written: the primary's current WAL position, which a
 * replica must have replayed before it may answer that caller's reads. Asynchronously committed:
 * the write it follows was committed (and flushed) before it.
 */
export async function markWrite(primary: Db, key: string): Promise<void> {
  await primary`
    INSERT INTO read_marks AS m (key, lsn, marked_at)
    SELECT ${key}::text, pg_current_wal_lsn(), now()
    FROM (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed
    ON CONFLICT (key) DO UPDATE SET lsn = EXCLUDED.lsn, marked_at = EXCLUDED.marked_at`;
}

/** The WAL position of `key`'s last write in the last `seconds`, or null. */
export async function selectWriteMark(
  primary: Db,
  key: string,
  seconds: number,
): Promise<string | null> {
  const rows = await primary<{ lsn: string }>`
    SELECT lsn::text AS lsn FROM read_marks
    WHERE key = ${key} AND marked_at > now() - make_interval(secs => ${seconds})`;
  return rows[0]?.lsn ?? null;
}

/** Whether a replica has replayed the WAL up to `lsn` (false on a server that is no replica). */
export async function replayedPast(replica: Db, lsn: string): Promise<boolean> {
  const rows = await replica<{ past: boolean | null }>`
    SELECT pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn AS past`;
  return rows[0]?.past === true;
}

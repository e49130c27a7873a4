import type { Db } from "../db/db.ts";

/** Usage writes still in flight, per database (a process may serve more than one in tests). */
const inFlight = new WeakMap<Db, Set<Promise<void>>>();

/**
 * Most usage writes one process keeps in flight: past it, the next caller waits for one to
 * finish, so a burst of searches cannot queue unbounded writes (or hold every connection).
 */
export const MAX_USAGE_WRITES_IN_FLIGHT = 32;

/**
 * Runs a usage write off the request's path: the caller's answer does not wait for its round
 * trip. The write is asynchronously committed (see `insertSearchUsage`), so what a crash can
 * lose is stated in one place (docs/operations.md, "Usage and rate-limit counts"): the writes
 * still in flight in a process that dies (at most `MAX_USAGE_WRITES_IN_FLIGHT`, normally those
 * of the last few milliseconds) and, when PostgreSQL itself crashes, the last ~0.6 s of
 * commits. `write` handles its own errors (a statistic never fails the call it counts).
 */
export async function writeUsageLater(db: Db, write: () => Promise<void>): Promise<void> {
  let pending = inFlight.get(db);
  if (!pending) inFlight.set(db, pending = new Set());
  if (pending.size >= MAX_USAGE_WRITES_IN_FLIGHT) await Promise.race(pending);
  const done: Promise<void> = write().finally(() => pending.delete(done));
  pending.add(done);
}

/**
 * Waits until every usage write this process started on `db` is done: the usage page reads
 * after it, so its own process's counts are always there; tests read counts after it.
 */
export async function usageWritten(db: Db): Promise<void> {
  const pending = inFlight.get(db);
  while (pending && pending.size > 0) await Promise.all([...pending]);
}

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

/** Most time a batched usage event waits in memory before its batch is written. */
export const USAGE_BATCH_MS = 1000;

/** Most events one batch holds: a full batch is written at once. */
export const USAGE_BATCH_MAX = 500;

/** A kind of usage event gathered in memory and written in one statement per batch. */
type Batch = {
  items: unknown[];
  write: (items: unknown[]) => Promise<void>;
  timer?: ReturnType<typeof setTimeout>;
};

/** The batches waiting to be written, per database and kind. */
const batches = new WeakMap<Db, Map<string, Batch>>();

/**
 * Adds a usage event to `kind`'s batch in this process; the batch is written by `write` (one
 * statement for all of its events, handling its own errors) once it is `USAGE_BATCH_MS` old or
 * holds `USAGE_BATCH_MAX` events, off the request's path through `writeUsageLater`. A search
 * then costs no statement of its own: one a second per process whatever the traffic. What a
 * crash of the process can lose grows by the batch: at most the last second of these events
 * (docs/operations.md, "Usage and rate-limit counts").
 */
export function batchUsageLater<T>(
  db: Db,
  kind: string,
  item: T,
  write: (items: T[]) => Promise<void>,
): void {
  let byKind = batches.get(db);
  if (!byKind) batches.set(db, byKind = new Map());
  let batch = byKind.get(kind);
  if (!batch) byKind.set(kind, batch = { items: [], write: write as Batch["write"] });
  batch.items.push(item);
  if (batch.items.length >= USAGE_BATCH_MAX) flushBatch(db, batch);
  else if (batch.timer === undefined) {
    const waiting = batch;
    batch.timer = setTimeout(() => flushBatch(db, waiting), USAGE_BATCH_MS);
  }
}

function flushBatch(db: Db, batch: Batch): Promise<void> {
  clearTimeout(batch.timer);
  batch.timer = undefined;
  const items = batch.items.splice(0);
  if (items.length === 0) return Promise.resolve();
  return writeUsageLater(db, () => batch.write(items));
}

/**
 * Writes what is batched and waits until every usage write this process started on `db` is
 * done: the usage page reads after it, so its own process's counts are always there; tests
 * read counts after it.
 */
export async function usageWritten(db: Db): Promise<void> {
  for (const batch of batches.get(db)?.values() ?? []) await flushBatch(db, batch);
  const pending = inFlight.get(db);
  while (pending && pending.size > 0) await Promise.all([...pending]);
}

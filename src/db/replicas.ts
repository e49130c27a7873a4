import type { Log } from "../lib/log.ts";
import { type Db, isDatabaseUnavailable, toQuery } from "./db.ts";
import { markWrite, replayedPast, selectWriteMark } from "./store.ts";

/** How long a replica that stopped answering is left alone before it is tried again. */
export const REPLICA_RETRY_MS = 5_000;

/** How long after a write its caller's reads wait for the replica to replay it. */
const MARK_SECONDS = 600;

/**
 * Read replicas behind the primary: `reader` gives one request a handle for the reads that
 * tolerate a moment of lag; `wrote` records a caller's write so that its own next reads see it.
 */
export type Replicas = {
  /**
   * A handle for one request's lag-tolerant reads (search statistics and candidates, page reads,
   * listings): a replica's, or the primary itself when none answers or when the caller `key`
   * wrote something the replica has not replayed yet (read-your-writes).
   */
  reader(key: string | undefined): Promise<Db>;
  /** Records that the caller `key` wrote (after its write committed). */
  wrote(key: string | undefined): Promise<void>;
  close(): Promise<void>;
};

type Replica = { db: Db; name: string; downUntil: number };

/**
 * The replica set over `primary`. Replicas take turns; one that fails with the database
 * unreachable is skipped for `REPLICA_RETRY_MS` (said once in the log), and the statement that
 * found it down runs on the primary instead, so a replica that stops costs no request.
 * Read-your-writes is kept for callers with a credential (`account:…`, `token:…`, the keys the
 * request budget uses): their writes leave a mark (the primary's WAL position, `read_marks`), and
 * until the chosen replica has replayed past it their reads go to the primary. Any process sees
 * the mark, so a write made through one process is read back through another.
 */
export function replicaSet(primary: Db, replicas: Db[], log: Log): Replicas {
  const set: Replica[] = replicas.map((db, i) => ({ db, name: `replica ${i + 1}`, downUntil: 0 }));
  let turn = 0;
  const down = (replica: Replica, error: unknown) => {
    const now = Date.now();
    if (replica.downUntil <= now) {
      log.warn("replica unavailable: its reads go to the primary", {
        replica: replica.name,
        retry_in_s: REPLICA_RETRY_MS / 1000,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    replica.downUntil = now + REPLICA_RETRY_MS;
  };
  const pick = (): Replica | null => {
    const now = Date.now();
    for (let i = 0; i < set.length; i++) {
      const replica = set[(turn + i) % set.length]!;
      if (replica.downUntil <= now) {
        turn = (turn + i + 1) % set.length;
        return replica;
      }
    }
    return null;
  };
  return {
    async reader(key) {
      const replica = pick();
      if (!replica) return primary;
      if (key && hasCredential(key)) {
        const lsn = await selectWriteMark(primary, key, MARK_SECONDS);
        if (lsn) {
          try {
            if (!(await replayedPast(replica.db, lsn))) return primary;
          } catch (error) {
            if (!isDatabaseUnavailable(error)) throw error;
            down(replica, error);
            return primary;
          }
        }
      }
      return readHandle(primary, replica, down);
    },
    async wrote(key) {
      if (key && hasCredential(key)) await markWrite(primary, key);
    },
    async close() {
      await Promise.all(set.map((replica) => replica.db.close()));
    },
  };
}

function hasCredential(key: string): boolean {
  return key.startsWith("account:") || key.startsWith("token:");
}

/**
 * One request's read handle on `replica`: each statement runs there until the replica fails
 * with the database unreachable; that statement and every later one of the request then run on
 * the primary (never back: see `cacheOf` in src/search/lexical_cache.ts for why that order
 * matters). A read-only transaction (the vector leg's) is retried whole on the primary.
 */
function readHandle(
  primary: Db,
  replica: Replica,
  down: (replica: Replica, error: unknown) => void,
): Db {
  let onPrimary = false;
  async function run<T>(onReplica: () => Promise<T>, onPrimaryToo: () => Promise<T>): Promise<T> {
    if (!onPrimary && replica.downUntil <= Date.now()) {
      try {
        return await onReplica();
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        down(replica, error);
      }
    }
    onPrimary = true;
    return await onPrimaryToo();
  }
  const query = <T>(text: string, params: unknown[] = []) =>
    run(() => replica.db.query<T>(text, params), () => primary.query<T>(text, params));
  return Object.assign(
    <T>(strings: TemplateStringsArray, ...values: unknown[]) =>
      query<T>(...toQuery(strings, values)),
    {
      kind: primary.kind,
      home: primary,
      query,
      exec: (text: string) => primary.exec(text),
      transaction: <T>(fn: (tx: Db) => Promise<T>) =>
        run(() => replica.db.transaction(fn), () => primary.transaction(fn)),
      close: () => Promise.resolve(),
    },
  ) as Db;
}

/** What `readingDeps` and `forReads` work on: the primary, the replicas, a request's reads. */
type ReadingDeps = { db: Db; replicas?: Replicas; reads?: Db };

/**
 * `deps` for one request of the caller `key` (its request budget's key): with `reads`, the
 * handle its lag-tolerant reads go through. Without replicas, `deps` as given.
 */
export async function readingDeps<D extends ReadingDeps>(deps: D, key?: string): Promise<D> {
  if (!deps.replicas) return deps;
  return { ...deps, reads: await deps.replicas.reader(key) };
}

/** `deps` whose `db` is the request's read handle: for functions that only read. */
export function forReads<D extends ReadingDeps>(deps: D): D {
  return deps.reads ? { ...deps, db: deps.reads } : deps;
}

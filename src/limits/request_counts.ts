import type { Db } from "../db/db.ts";
import { countRequest } from "./store.ts";

/** A key's count as the limiter reads it: how many, when its window opened, and now. */
export type Counted = { count: number; window_started_at: Date; now: Date };

/** How long a process counts a key on its own between two writes of the shared counter. */
export const SYNC_MS = 1000;

/** A process counts on its own only while its estimate is under this share of the budget. */
export const LOCAL_SHARE = 0.5;

/** Past this many keys, those whose window has closed are forgotten. */
const MAX_KEYS = 10_000;

type Entry = { count: number; pending: number; syncedAt: number; windowStart: number };

/**
 * One process's view of the shared request counters (`rate_limits`), so that most requests
 * cost no round trip: a key counted in the last `SYNC_MS` whose estimate (the shared count
 * then, plus what this process counted since, plus this request) stays under `LOCAL_SHARE` of
 * its budget is counted here; any other request writes the shared counter, adding what this
 * process counted meanwhile, and reads back the count every process made. So a caller near its
 * budget is counted exactly across processes, and a caller far from it can only be undercounted
 * by what other processes saw of it in the last second (it would need more than half its budget
 * in that second to pass it). A process that dies loses at most `SYNC_MS` of counts per key.
 *
 * @example
 * const counts = requestCounts();
 * const counted = await counts.count(db, "ip:203.0.113.9", 60, 600);
 */
export function requestCounts() {
  const entries = new Map<string, Entry>();
  return {
    async count(db: Db, key: string, windowSeconds: number, limit: number): Promise<Counted> {
      const now = Date.now();
      const entry = entries.get(key);
      const open = entry && now - entry.windowStart < windowSeconds * 1000;
      if (entry && open && now - entry.syncedAt < SYNC_MS) {
        const estimate = entry.count + entry.pending + 1;
        if (estimate <= limit * LOCAL_SHARE) {
          entry.pending += 1;
          return {
            count: estimate,
            window_started_at: new Date(entry.windowStart),
            now: new Date(now),
          };
        }
      }
      // Counts made in a window that has closed since belong to no budget any more.
      const amount = (open ? entry.pending : 0) + 1;
      if (entry) entry.pending = 0;
      const counted = await countRequest(db, key, windowSeconds, amount);
      if (entries.size >= MAX_KEYS) forgetClosed(entries, windowSeconds);
      const age = counted.now.getTime() - counted.window_started_at.getTime();
      entries.set(key, {
        count: counted.count,
        pending: entries.get(key)?.pending ?? 0,
        syncedAt: now,
        // The database's clock places the window; this process's clock measures from it.
        windowStart: Date.now() - age,
      });
      return counted;
    },
  };
}

function forgetClosed(entries: Map<string, Entry>, windowSeconds: number): void {
  const now = Date.now();
  for (const [key, entry] of entries) {
    if (now - entry.windowStart >= windowSeconds * 1000) entries.delete(key);
  }
}

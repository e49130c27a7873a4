import type { Db } from "../db/db.ts";
import {
  type ClientUsage,
  type DailyUsage,
  type PageCount,
  selectDailyUsage,
  selectRecentNotes,
  selectTopPages,
  selectUsageByClient,
  type UseNote,
} from "./store.ts";

/** A wiki's usage over the last `days`, as the usage page shows it. */
export type UsageReport = {
  daily: DailyUsage[];
  confirmed: PageCount[];
  read: PageCount[];
  clients: ClientUsage[];
  notes: UseNote[];
};

/**
 * A wiki's usage over the last `days`: searches, reads and confirmed uses by day, the most
 * confirmed and most read pages (`topPages` of each), uses by client, and the latest notes.
 */
export async function usageReport(
  db: Db,
  wikiId: string,
  days: number,
  limits: { topPages: number; notes: number },
): Promise<UsageReport> {
  const [daily, confirmed, read, clients, notes] = await Promise.all([
    selectDailyUsage(db, wikiId, days),
    selectTopPages(db, wikiId, "confirm", days, limits.topPages),
    selectTopPages(db, wikiId, "read", days, limits.topPages),
    selectUsageByClient(db, wikiId, days),
    selectRecentNotes(db, wikiId, days, limits.notes),
  ]);
  return { daily, confirmed, read, clients, notes };
}

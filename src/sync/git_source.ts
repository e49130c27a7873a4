import type { Db } from "../db/db.ts";
import {
  enqueueSyncJob,
  type GitSourceRow,
  selectGitSource,
  selectRecentSyncJobs,
  type SyncJobRow,
} from "./store.ts";

/** A space's Git connection, or null when it is not synced from Git. */
export function findGitSource(db: Db, wikiId: string): Promise<GitSourceRow | null> {
  return selectGitSource(db, wikiId);
}

/** The space's latest sync jobs, newest first. */
export function recentSyncJobs(db: Db, wikiId: string, limit = 5): Promise<SyncJobRow[]> {
  return selectRecentSyncJobs(db, wikiId, limit);
}

/** Queues a sync of the space (a button, REST, or a push webhook); the job loop runs it. */
export function queueSync(
  db: Db,
  wikiId: string,
  reason: SyncJobRow["reason"],
): Promise<SyncJobRow> {
  return enqueueSyncJob(db, wikiId, reason);
}

export type { GitSourceRow, SyncJobRow };

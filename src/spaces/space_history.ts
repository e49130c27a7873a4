import type { Db } from "../db/db.ts";
import {
  type ChangeRow,
  countPages,
  type HistoryRow,
  selectHistory,
  selectRecentChanges,
  selectRecentPages,
} from "./store.ts";

/** A page's revisions, newest first, at most `limit`. */
export function pageHistory(db: Db, pageId: number, limit: number): Promise<HistoryRow[]> {
  return selectHistory(db, pageId, limit);
}

/** The wiki's latest changes over all its pages, newest first. */
export function recentChanges(db: Db, wikiId: string, limit: number): Promise<ChangeRow[]> {
  return selectRecentChanges(db, wikiId, limit);
}

/** The wiki's most recently changed pages. */
export function recentPages(
  db: Db,
  wikiId: string,
  limit: number,
): Promise<{ path: string; title: string; updated_at: Date }[]> {
  return selectRecentPages(db, wikiId, limit);
}

/** How many pages the wiki holds. */
export function countWikiPages(db: Db, wikiId: string): Promise<number> {
  return countPages(db, wikiId);
}

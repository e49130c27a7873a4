import type { Db } from "../db/db.ts";
import {
  insertRating,
  type PageRatings,
  type RatingComment,
  selectRatingComments,
  selectRatingCounts,
} from "./store.ts";

/** Records a reader's "Was this page helpful?" (and optional comment) for a page. */
export function recordRating(
  db: Db,
  rating: { wikiId: string; path: string; helpful: boolean; comment: string | null },
): Promise<void> {
  return insertRating(db, rating);
}

/** The owners' view of readers' ratings over `days`: counts by page, and the latest comments. */
export async function readerRatings(
  db: Db,
  wikiId: string,
  days: number,
  limits: { pages: number; comments: number },
): Promise<{ pages: PageRatings[]; comments: RatingComment[] }> {
  const [pages, comments] = await Promise.all([
    selectRatingCounts(db, wikiId, days, limits.pages),
    selectRatingComments(db, wikiId, days, limits.comments),
  ]);
  return { pages, comments };
}

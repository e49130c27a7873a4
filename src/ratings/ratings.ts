import type { Db } from "../db/db.ts";
import {
  type PageRatings,
  type RatingComment,
  selectRatingComments,
  selectRatingCounts,
} from "./store.ts";

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

import type { Db } from "../db/db.ts";

/** A page's ratings over a period. */
export type PageRatings = { path: string; helpful: number; unhelpful: number };
/** A reader's comment with their rating. */
export type RatingComment = { path: string; helpful: boolean; comment: string; created_at: Date };

/** Records a reader's rating of a page. */
export async function insertRating(
  db: Db,
  rating: { wikiId: string; path: string; helpful: boolean; comment: string | null },
): Promise<void> {
  await db`
    INSERT INTO page_ratings (wiki_id, path, helpful, comment)
    VALUES (${rating.wikiId}, ${rating.path}, ${rating.helpful}, ${rating.comment})`;
}

/** Ratings per page over the last `days`, most rated first. */
export async function selectRatingCounts(
  db: Db,
  wikiId: string,
  days: number,
  limit: number,
): Promise<PageRatings[]> {
  const rows = await db<{ path: string; helpful: string | number; unhelpful: string | number }>`
    SELECT path,
      count(*) FILTER (WHERE helpful) AS helpful,
      count(*) FILTER (WHERE NOT helpful) AS unhelpful
    FROM page_ratings
    WHERE wiki_id = ${wikiId} AND created_at > now() - make_interval(days => ${days})
    GROUP BY path ORDER BY count(*) DESC, path LIMIT ${limit}`;
  return rows.map((r) => ({
    path: r.path,
    helpful: Number(r.helpful),
    unhelpful: Number(r.unhelpful),
  }));
}

/** The latest comments readers left over the last `days`. */
export async function selectRatingComments(
  db: Db,
  wikiId: string,
  days: number,
  limit: number,
): Promise<RatingComment[]> {
  return await db<RatingComment>`
    SELECT path, helpful, comment, created_at FROM page_ratings
    WHERE wiki_id = ${wikiId} AND comment IS NOT NULL
      AND created_at > now() - make_interval(days => ${days})
    ORDER BY created_at DESC LIMIT ${limit}`;
}

import type { Db } from "../db/db.ts";
import { cleanPath, pathKey } from "../markdown/paths.ts";
import type { PageRow } from "../db/page_row.ts";
import { type HistoryRow, selectHistory, selectLastRevisionAt } from "./store.ts";
import { selectPage, selectPageById } from "../pages/mod.ts";

/** What a path of a wiki leads to. */
export type PageRecord =
  | { kind: "page"; page: PageRow }
  /** No page has the path now, but the page that had it lives on at another path. */
  | { kind: "moved"; page: PageRow }
  /** The page that had the path was deleted; `last` is its delete revision. */
  | { kind: "deleted"; pageId: number; last: HistoryRow };

/**
 * Finds what a path leads to: the page there now, else the page that last had it (renamed
 * since, or deleted with its history kept). Null when no page ever had it.
 */
export async function findPageRecord(
  db: Db,
  wikiId: string,
  path: string,
): Promise<PageRecord | null> {
  const clean = cleanPath(path);
  if (!clean) return null;
  const page = await selectPage(db, wikiId, pathKey(clean));
  if (page) return { kind: "page", page };
  const revision = await selectLastRevisionAt(db, wikiId, pathKey(clean));
  if (!revision) return null;
  const moved = await selectPageById(db, wikiId, revision.page_id);
  if (moved) return { kind: "moved", page: moved };
  const [last] = await selectHistory(db, revision.page_id, 1);
  return { kind: "deleted", pageId: revision.page_id, last: last ?? revision };
}

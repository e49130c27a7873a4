import type { Db } from "../db/db.ts";
import type { PageRow } from "../db/page_row.ts";
import { AppError } from "../errors.ts";
import { cleanPath, pathKey } from "../markdown/paths.ts";
import { type RevisionRow, selectPage, selectPageById, selectSimilarPaths } from "./store.ts";

/**
 * Finds a page by its path (case-insensitive, `_` equal to space, `.md` optional) or,
 * failing that, by its numeric id. Throws `page_not_found` with close matches suggested.
 */
export async function resolvePageRef(db: Db, wikiId: string, ref: string): Promise<PageRow> {
  const path = cleanPath(ref);
  const byPath = path ? await selectPage(db, wikiId, pathKey(path)) : null;
  if (byPath) return byPath;
  if (/^\d{1,15}$/.test(ref.trim())) {
    const byId = await selectPageById(db, wikiId, Number(ref.trim()));
    if (byId) return byId;
  }
  const suggestions = path ? await selectSimilarPaths(db, wikiId, pathKey(path)) : [];
  const hint = suggestions.length > 0
    ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(", ")}?`
    : "";
  throw new AppError("page_not_found", `Page "${ref}" not found in wiki "${wikiId}"${hint}`, {
    suggestions,
  });
}

export type { RevisionRow };

import type { Db } from "../db/db.ts";
import type { PageRow } from "../db/page_row.ts";
import type { WriteDeps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { rewriteLinks } from "../markdown/links.ts";
import { nameKey, pathKey } from "../markdown/paths.ts";
import { prepareChunks } from "../search/prepare_chunks.ts";
import {
  deletePageRow,
  insertRevision,
  lockPage,
  resolveLinks,
  selectLinksTo,
  selectPageById,
  updatePage,
} from "./store.ts";
import {
  byOf,
  conflict,
  indexPage,
  lockWiki,
  parseOrThrow,
  requireNewPath,
  requirePath,
  type WriteBy,
} from "./write_page.ts";
import { removeChunks } from "../search/mod.ts";
import { touchWiki } from "../wikis/mod.ts";

/** A rename: the page at `path` moves to `newPath`. */
export type PageRename = {
  wikiId: string;
  path: string;
  newPath: string;
  baseRevision?: number;
  /** Rewrite the links of pages that point here so they follow the page (default true). */
  updateLinks?: boolean;
};

/**
 * Renames a page. By default every page linking to it is rewritten to the new path, each as
 * a new revision, so backlinks stay whole; all of it in one transaction.
 */
export async function renamePage(
  deps: WriteDeps,
  rename: PageRename,
  by: WriteBy,
): Promise<PageRow> {
  const from = requirePath(rename.path);
  const to = requireNewPath(rename.newPath);
  return await deps.db.transaction(async (tx) => {
    await lockWiki(tx, rename.wikiId, by);
    const page = await requirePage(tx, rename.wikiId, from);
    if (rename.baseRevision !== undefined && rename.baseRevision !== page.revision) {
      throw conflict(page.path, rename.baseRevision, page.revision);
    }
    if (pathKey(to) !== page.path_key && await lockPage(tx, rename.wikiId, pathKey(to))) {
      throw new AppError("page_exists", `Page "${to}" already exists in wiki "${rename.wikiId}"`);
    }
    const referrers = rename.updateLinks === false ? [] : await selectLinksTo(tx, page.id);
    const parsed = await parseOrThrow(to, page.markdown);
    const renamed = await updatePage(tx, page.id, {
      path: to,
      path_key: pathKey(to),
      name_key: nameKey(to),
      title: parsed.title,
      markdown: page.markdown,
      content_hash: parsed.contentHash,
    });
    const keys = [page.path_key, page.name_key, renamed.path_key, renamed.name_key];
    await indexPage(tx, renamed, parsed, await prepareChunks(deps, parsed), keys);
    await insertRevision(tx, renamed, "rename", byOf(by));

    // Every link with a key that reached the page is rewritten (links store one row a key).
    const keysOf = new Map<number, Set<string>>();
    for (const link of referrers) {
      if (link.from_page_id === page.id) continue;
      keysOf.set(
        link.from_page_id,
        (keysOf.get(link.from_page_id) ?? new Set()).add(link.target_key),
      );
    }
    for (const [referrerId, keys] of keysOf) {
      const referrer = (await selectPageById(tx, rename.wikiId, referrerId))!;
      const markdown = rewriteLinks(
        referrer.markdown,
        referrer.path,
        (link) => keys.has(link.targetKey) ? to : null,
      );
      const reparsed = await parseOrThrow(referrer.path, markdown);
      const updated = await updatePage(tx, referrer.id, {
        ...referrer,
        title: reparsed.title,
        markdown,
        content_hash: reparsed.contentHash,
      });
      await indexPage(tx, updated, reparsed, await prepareChunks(deps, reparsed), []);
      await insertRevision(tx, updated, "update", { author: byOf(by).author, source: "rename" });
    }
    return renamed;
  });
}

/** A delete of the page at `path`. */
export type PageDelete = { wikiId: string; path: string; baseRevision?: number };

/** Deletes a page, keeping its history; links to it become links to a missing page. */
export async function deletePage(
  deps: WriteDeps,
  del: PageDelete,
  by: WriteBy,
): Promise<{ revision: number }> {
  const path = requirePath(del.path);
  return await deps.db.transaction(async (tx) => {
    await lockWiki(tx, del.wikiId, by);
    const page = await requirePage(tx, del.wikiId, path);
    if (del.baseRevision !== undefined && del.baseRevision !== page.revision) {
      throw conflict(page.path, del.baseRevision, page.revision);
    }
    const revision = page.revision + 1;
    await insertRevision(tx, { ...page, revision }, "delete", byOf(by));
    await removeChunks(tx, del.wikiId, page.id);
    await deletePageRow(tx, page.id);
    await resolveLinks(tx, del.wikiId, null, [page.path_key, page.name_key]);
    await touchWiki(tx, del.wikiId);
    return { revision };
  });
}

async function requirePage(tx: Db, wikiId: string, path: string): Promise<PageRow> {
  const page = await lockPage(tx, wikiId, pathKey(path));
  if (!page) throw new AppError("page_not_found", `Page "${path}" not found in wiki "${wikiId}"`);
  return page;
}

import type { Db } from "../db/db.ts";
import { removeChunks, replaceChunks, replaceChunksOfPages, resetChunkLog } from "./store.ts";

/**
 * The search index's part of a page write, run inside the writer's transaction (`tx`): a
 * page's chunks, postings and the wiki's statistics change with its text, or not at all.
 */
export const indexChunks: typeof replaceChunks = (...args) => replaceChunks(...args);

/** `indexChunks` for many pages of one wiki, in the writer's transaction. */
export const indexChunksOfPages: typeof replaceChunksOfPages = (...args) =>
  replaceChunksOfPages(...args);

/** Takes a deleted page's chunks out of the index, in the writer's transaction. */
export function unindexPage(tx: Db, wikiId: string, pageId: number): Promise<void> {
  return removeChunks(tx, wikiId, pageId);
}

/**
 * Makes every process read the wiki's lexical index again in full, in the writer's
 * transaction: for writers that change postings without `indexChunks` (bulk loaders).
 */
export function invalidateLexicalIndex(tx: Db, wikiId: string): Promise<void> {
  return resetChunkLog(tx, wikiId);
}

import { replaceChunks, replaceChunksOfPages } from "./store.ts";

/**
 * The search index's part of a page write, run inside the writer's transaction (`tx`): a
 * page's chunks, postings and the wiki's statistics change with its text, or not at all.
 */
export const indexChunks: typeof replaceChunks = (...args) => replaceChunks(...args);

/** `indexChunks` for many pages of one wiki, in the writer's transaction. */
export const indexChunksOfPages: typeof replaceChunksOfPages = (...args) =>
  replaceChunksOfPages(...args);

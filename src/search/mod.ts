/**
 * The public face of `src/search/` for its tables: the queries other features and its own
 * adapters call, exported from its store as they are (no wrapper renames them).
 *
 * @module
 */
export { removeChunks, resetChunkLog, selectHeadings, selectWordsLike } from "./store.ts";

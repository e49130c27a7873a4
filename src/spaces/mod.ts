/**
 * The public face of `src/spaces/` for its tables: the queries other features and its own
 * adapters call, exported from its store as they are (no wrapper renames them).
 *
 * @module
 */
export { countPages, selectHistory, selectRecentChanges, selectRecentPages } from "./store.ts";

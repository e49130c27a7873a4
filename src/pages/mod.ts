/**
 * The public face of `src/pages/` for its tables: the queries other features and its own
 * adapters call, exported from its store as they are (no wrapper renames them).
 *
 * @module
 */
export {
  selectLinksTo,
  selectMissingLinksFrom,
  selectMissingTargets,
  selectPage,
  selectPageById,
  selectPageHashes,
  selectPageHeads,
  selectPageTexts,
  selectRevision,
  selectSimilarPaths,
} from "./store.ts";

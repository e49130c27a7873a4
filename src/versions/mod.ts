/**
 * The public face of `src/versions/` for its tables: the queries other features and its own
 * adapters call, exported from its store as they are (no wrapper renames them).
 *
 * @module
 */
export {
  selectDivergedPages,
  selectRevisionsOf,
  selectVersionPattern,
  selectVersions,
} from "./store.ts";

/**
 * The public face of `src/wikis/` for its tables: the queries other features and its own
 * adapters call, exported from its store as they are (no wrapper renames them).
 *
 * @module
 */
export {
  lockWikiForWrite,
  selectWikis,
  touchWiki,
  updateWiki,
  updateWikiOwnerToTeam,
} from "./store.ts";

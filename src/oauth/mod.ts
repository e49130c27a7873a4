/**
 * The public face of `src/oauth/` for its tables: the queries other features and its own
 * adapters call, exported from its store as they are (no wrapper renames them).
 *
 * @module
 */
export {
  removeTeamSpacesFromGrants,
  revokeAccountGrant,
  revokeAllGrantsOf,
  selectLiveGrantsOf,
} from "./store.ts";

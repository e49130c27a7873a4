/**
 * The public face of `src/auth/` for its tables: the queries other features and its own
 * adapters call, exported from its store as they are (no wrapper renames them).
 *
 * @module
 */
export { revokeAllTokensOf, revokeTeamSpaceTokens, selectTokensOf } from "./store.ts";

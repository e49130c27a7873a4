/**
 * The public face of `src/accounts/` for its tables: the queries other features and its own
 * adapters call, exported from its store as they are (no wrapper renames them).
 *
 * @module
 */
export { selectAccountByEmail, updateAccountName } from "./store.ts";

import type { Db } from "../db/db.ts";
import { sha256Hex } from "../lib/sha256.ts";
import {
  type ConnectedAppRow,
  removeTeamSpacesFromGrants,
  revokeAccountGrant,
  revokeAllGrantsOf,
  revokeGrantRow,
  selectGrantOfTokenHash,
  selectLiveGrantsOf,
} from "./store.ts";

/** The apps an account has connected (its live OAuth grants), for "Connected apps". */
export function listConnectedApps(db: Db, accountId: string): Promise<ConnectedAppRow[]> {
  return selectLiveGrantsOf(db, accountId);
}

/** Disconnects one of the account's apps; false when the grant is not the account's. */
export function disconnectApp(db: Db, accountId: string, grantId: string): Promise<boolean> {
  return revokeAccountGrant(db, accountId, grantId);
}

/** Revokes every grant of the account (a password change); returns how many. */
export function revokeAllGrants(db: Db, accountId: string): Promise<number> {
  return revokeAllGrantsOf(db, accountId);
}

/** Takes the team's spaces out of the account's grants (it left the team). */
export function dropTeamSpacesFromGrants(db: Db, accountId: string, teamId: string): Promise<void> {
  return removeTeamSpacesFromGrants(db, accountId, teamId);
}

/**
 * Revokes the grant behind an access or refresh token, if `clientId` holds it (RFC 7009: a
 * client revokes only its own tokens; anything else is answered the same, revoking nothing).
 */
export async function revokeGrantOfToken(db: Db, token: string, clientId: string): Promise<void> {
  // Longer strings are no token of ours: not worth hashing.
  const grant = token.length <= 200
    ? await selectGrantOfTokenHash(db, await sha256Hex(token))
    : null;
  if (grant && grant.client_id === clientId) await revokeGrantRow(db, grant.grant_id);
}

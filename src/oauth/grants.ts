import type { Db } from "../db/db.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { revokeGrantRow, selectGrantOfTokenHash } from "./store.ts";

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

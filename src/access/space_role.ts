import type { Db } from "../db/db.ts";
import type { Role } from "./role.ts";
import { selectSpaceRole } from "./store.ts";

/**
 * The account's role in a space (owner, admin or member), or null when it has none. For
 * checks made before any caller exists, such as minting a space token for an account.
 */
export function spaceRole(db: Db, accountId: string, wikiId: string): Promise<Role | null> {
  return selectSpaceRole(db, accountId, wikiId);
}

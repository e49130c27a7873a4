import type { Role } from "../access/role.ts";
import type { Db } from "../db/db.ts";

/** A share of a space with one email. */
export type ShareRow = { email: string; role: "viewer" | "member"; created_at: Date };

/** Shares the space with an email, or changes the role of an existing share. */
export async function upsertShare(
  db: Db,
  share: { wikiId: string; email: string; role: ShareRow["role"]; sharedBy: string },
): Promise<void> {
  await db`
    INSERT INTO space_shares (wiki_id, email, role, shared_by)
    VALUES (${share.wikiId}, ${share.email}, ${share.role}, ${share.sharedBy})
    ON CONFLICT (wiki_id, lower(email)) DO UPDATE SET role = excluded.role`;
}

/** Ends a share; returns whether there was one. */
export async function deleteShare(db: Db, wikiId: string, email: string): Promise<boolean> {
  const rows = await db`
    DELETE FROM space_shares WHERE wiki_id = ${wikiId} AND lower(email) = lower(${email})
    RETURNING 1`;
  return rows.length > 0;
}

/** The space's shares, by email. */
export function selectShares(db: Db, wikiId: string): Promise<ShareRow[]> {
  return db`
    SELECT email, role, created_at FROM space_shares WHERE wiki_id = ${wikiId}
    ORDER BY lower(email)`;
}

/** Who reaches the space through its owner or its team, with their role there. */
export function selectPeopleOf(
  db: Db,
  wikiId: string,
): Promise<{ email: string; name: string; role: Role; through: "owner" | "team" }[]> {
  return db`
    SELECT a.email, a.name, 'owner' AS role, 'owner' AS through
    FROM wikis w JOIN accounts a ON a.id = w.owner_account_id WHERE w.id = ${wikiId}
    UNION ALL
    SELECT a.email, a.name, m.role, 'team' AS through
    FROM wikis w JOIN memberships m ON m.team_id = w.owner_team_id
    JOIN accounts a ON a.id = m.account_id WHERE w.id = ${wikiId}
    ORDER BY 1`;
}

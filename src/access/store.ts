import type { Role } from "./role.ts";
import type { Db } from "../db/db.ts";
import type { WikiSummaryRow } from "../wikis/wikis.ts";

/** A person's role in a space: owner of their own, their team role in a team's. */
export type { Role };

/** The wikis an account can reach: its own (as owner) and its teams' (with its team role). */
export function selectSpacesOf(
  db: Db,
  accountId: string,
): Promise<(WikiSummaryRow & { role: Role })[]> {
  return db`
    SELECT w.*, s.role, (SELECT count(*)::int FROM pages p WHERE p.wiki_id = w.id) AS page_count
    FROM (
      SELECT id AS wiki_id, 'owner' AS role FROM wikis WHERE owner_account_id = ${accountId}
      UNION ALL
      SELECT w.id, m.role FROM wikis w JOIN memberships m ON m.team_id = w.owner_team_id
      WHERE m.account_id = ${accountId}
    ) s JOIN wikis w ON w.id = s.wiki_id
    ORDER BY w.id`;
}

/** The account's role in one space, or null when it has none. */
export async function selectSpaceRole(
  db: Db,
  accountId: string,
  wikiId: string,
): Promise<Role | null> {
  const rows = await db<{ role: Role }>`
    SELECT 'owner' AS role FROM wikis WHERE id = ${wikiId} AND owner_account_id = ${accountId}
    UNION ALL
    SELECT m.role FROM wikis w JOIN memberships m ON m.team_id = w.owner_team_id
    WHERE w.id = ${wikiId} AND m.account_id = ${accountId}`;
  return rows[0]?.role ?? null;
}

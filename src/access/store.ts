import type { Role } from "./role.ts";
import type { Db } from "../db/db.ts";
import type { WikiRow, WikiSummaryRow } from "../db/wiki_row.ts";

/**
 * A person's role in a space: owner of their own, their team role in a team's, the role a
 * space was shared with them (viewer or member). The strongest wins when several apply.
 */
export type { Role };

/**
 * The wikis an account can reach: its own (as owner), its teams' (with its team role) and the
 * ones shared with it; one row a wiki, with the strongest of its roles there.
 */
export function selectSpacesOf(
  db: Db,
  accountId: string,
): Promise<(WikiSummaryRow & { role: Role })[]> {
  return db`
    SELECT DISTINCT ON (w.id) w.*, s.role,
      (SELECT count(*)::int FROM pages p WHERE p.wiki_id = w.id) AS page_count
    FROM (
      SELECT id AS wiki_id, 'owner' AS role FROM wikis WHERE owner_account_id = ${accountId}
      UNION ALL
      SELECT w.id, m.role FROM wikis w JOIN memberships m ON m.team_id = w.owner_team_id
      WHERE m.account_id = ${accountId}
      UNION ALL
      SELECT sh.wiki_id, sh.role FROM space_shares sh
      JOIN accounts a ON lower(a.email) = lower(sh.email) WHERE a.id = ${accountId}
    ) s JOIN wikis w ON w.id = s.wiki_id
    ORDER BY w.id, array_position(ARRAY['owner', 'admin', 'member', 'viewer']::text[], s.role)`;
}

/** The account's role in one space (the strongest it has), or null when it has none. */
export async function selectSpaceRole(
  db: Db,
  accountId: string,
  wikiId: string,
): Promise<Role | null> {
  const rows = await db<{ role: Role }>`
    SELECT s.role FROM (
      SELECT 'owner' AS role FROM wikis WHERE id = ${wikiId} AND owner_account_id = ${accountId}
      UNION ALL
      SELECT m.role FROM wikis w JOIN memberships m ON m.team_id = w.owner_team_id
      WHERE w.id = ${wikiId} AND m.account_id = ${accountId}
      UNION ALL
      SELECT sh.role FROM space_shares sh JOIN accounts a ON lower(a.email) = lower(sh.email)
      WHERE sh.wiki_id = ${wikiId} AND a.id = ${accountId}
    ) s
    ORDER BY array_position(ARRAY['owner', 'admin', 'member', 'viewer']::text[], s.role)
    LIMIT 1`;
  return rows[0]?.role ?? null;
}

/**
 * The wiki with this id, or null. The policy reads the wiki it decides about itself (its
 * visibility and owners), not through the wikis feature, which builds on the policy.
 */
export async function selectWiki(db: Db, id: string): Promise<WikiRow | null> {
  const rows = await db<WikiRow>`SELECT * FROM wikis WHERE id = ${id}`;
  return rows[0] ?? null;
}

/** The ids of the first `limit` public wikis, by id (the close ids a not-found suggests). */
export async function selectPublicWikiIds(db: Db, limit: number): Promise<string[]> {
  const rows = await db<{ id: string }>`
    SELECT id FROM wikis WHERE visibility = 'public' ORDER BY id LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

import type { Db } from "../db/db.ts";
import type { WikiRow, WikiSummaryRow } from "../db/wiki_row.ts";

/** Inserts a wiki; returns null when the id is taken. */
export async function insertWiki(
  db: Db,
  wiki: Pick<WikiRow, "id" | "title" | "description" | "visibility"> & Partial<WikiRow>,
): Promise<WikiRow | null> {
  const rows = await db<WikiRow>`
    INSERT INTO wikis (id, title, description, visibility, owner_account_id, owner_team_id, instructions)
    VALUES (${wiki.id}, ${wiki.title}, ${wiki.description}, ${wiki.visibility},
            ${wiki.owner_account_id ?? null}, ${wiki.owner_team_id ?? null}, ${
    wiki.instructions ?? null
  })
    ON CONFLICT (id) DO NOTHING
    RETURNING *`;
  return rows[0] ?? null;
}

/** The wiki with this id, or null. */
export async function selectWiki(db: Db, id: string): Promise<WikiRow | null> {
  const rows = await db<WikiRow>`SELECT * FROM wikis WHERE id = ${id}`;
  return rows[0] ?? null;
}

/** Changes a wiki's descriptive fields. */
export async function updateWiki(
  db: Db,
  id: string,
  fields: Pick<WikiRow, "title" | "description" | "visibility" | "instructions">,
): Promise<WikiRow | null> {
  const rows = await db<WikiRow>`
    UPDATE wikis SET title = ${fields.title}, description = ${fields.description},
      visibility = ${fields.visibility}, instructions = ${fields.instructions}, updated_at = now()
    WHERE id = ${id}
    RETURNING *`;
  return rows[0] ?? null;
}

/**
 * Gives a personal wiki of `fromAccountId` to team `teamId`; null when the wiki is not that
 * account's own (already a team's, someone else's, or gone).
 */
export async function updateWikiOwnerToTeam(
  db: Db,
  id: string,
  fromAccountId: string,
  teamId: string,
): Promise<WikiRow | null> {
  const rows = await db<WikiRow>`
    UPDATE wikis SET owner_account_id = NULL, owner_team_id = ${teamId}, updated_at = now()
    WHERE id = ${id} AND owner_account_id = ${fromAccountId}
    RETURNING *`;
  return rows[0] ?? null;
}

/** Marks the wiki changed now (called in every page write's transaction). */
export async function touchWiki(db: Db, id: string): Promise<void> {
  await db`UPDATE wikis SET updated_at = now() WHERE id = ${id}`;
}

/** Public wikis with their page counts, ordered by id, after `afterId` (keyset paging). */
export function selectPublicWikis(
  db: Db,
  options: { afterId: string | null; limit: number; query: string | null },
): Promise<WikiSummaryRow[]> {
  const pattern = options.query ? `%${options.query.replace(/[\\%_]/g, "\\$&")}%` : null;
  return db<WikiSummaryRow>`
    SELECT w.*, (SELECT count(*)::int FROM pages p WHERE p.wiki_id = w.id) AS page_count
    FROM wikis w
    WHERE w.visibility = 'public'
      AND (${options.afterId}::text IS NULL OR w.id > ${options.afterId})
      AND (${pattern}::text IS NULL OR w.id ILIKE ${pattern} OR w.title ILIKE ${pattern}
           OR w.description ILIKE ${pattern})
    ORDER BY w.id
    LIMIT ${options.limit}`;
}

/**
 * Locks a wiki's row for a page write; false when the wiki does not exist. Every write to a
 * wiki takes this lock first, so the wiki's search statistics are updated one write at a
 * time and in one order (no deadlocks between writers).
 */
export async function lockWikiForWrite(tx: Db, id: string): Promise<boolean> {
  const rows = await tx`SELECT 1 FROM wikis WHERE id = ${id} FOR NO KEY UPDATE`;
  return rows.length > 0;
}

/** The wikis with these ids (those that exist). */
export function selectWikis(db: Db, ids: string[]): Promise<WikiRow[]> {
  return db<WikiRow>`SELECT * FROM wikis WHERE id = ANY(${ids}::text[]) ORDER BY id`;
}

/** How many pages a wiki holds. */
export async function selectPageCount(db: Db, wikiId: string): Promise<number> {
  const rows = await db<{ n: number }>`
    SELECT count(*)::int AS n FROM pages WHERE wiki_id = ${wikiId}`;
  return rows[0]!.n;
}

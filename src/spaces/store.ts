import type { Db } from "../db/db.ts";
import type { RevisionRow } from "../pages/read_page.ts";

/** A revision without its text, with the name of the account that made it. */
export type HistoryRow = Omit<RevisionRow, "markdown"> & {
  author_name: string | null;
  author_email: string | null;
  /** For an agent's accepted proposal: whose agent proposed it, and with which client. */
  proposer_name?: string | null;
  proposed_client?: string | null;
};

/** A change anywhere in a wiki, with the page's path now (null once deleted). */
export type ChangeRow = HistoryRow & { current_path: string | null };

/** A page a link reaches: where it is, and its title to show as the link's text. */
export type LinkTarget = { path: string; title: string };

/**
 * The existing page each link key reaches, by the rule `resolveLinksOfPages` stores links by: a
 * full path match first, then the longest path that ends the key (`keySuffixes`), then for a
 * one-segment key a last-segment match, the shortest path among them.
 */
export async function selectLinkTargets(
  db: Db,
  wikiId: string,
  keys: string[],
): Promise<Map<string, LinkTarget>> {
  if (keys.length === 0) return new Map();
  const rows = await db<{ key: string; path: string; title: string }>`
    SELECT DISTINCT ON (k.key) k.key, p.path, p.title
    FROM unnest(${[...new Set(keys)]}::text[]) AS k(key)
    JOIN pages p ON p.wiki_id = ${wikiId} AND (p.path_key = k.key OR p.name_key = k.key
      OR p.path_key = ANY(ARRAY(SELECT array_to_string(s.parts[i:], '/')
        FROM (SELECT string_to_array(k.key, '/') AS parts) s,
          generate_series(2, cardinality(s.parts) - 1) AS i)))
    ORDER BY k.key, (p.path_key = k.key) DESC,
      CASE WHEN strpos(k.key, '/') > 0 THEN -length(p.path_key) ELSE length(p.path_key) END,
      p.path_key`;
  return new Map(rows.map((r) => [r.key, { path: r.path, title: r.title }]));
}

/** A page's history, newest first, with author names. */
export function selectHistory(db: Db, pageId: number, limit: number): Promise<HistoryRow[]> {
  return db<HistoryRow>`
    SELECT r.page_id, r.revision, r.action, r.path, r.title, r.content_hash,
      r.author_account_id, r.source, r.created_at, a.name AS author_name, a.email AS author_email,
      nullif(pa.name, '') AS proposer_name, r.proposed_client
    FROM page_revisions r LEFT JOIN accounts a ON a.id = r.author_account_id
      LEFT JOIN accounts pa ON pa.id = r.proposed_by_account_id
    WHERE r.page_id = ${pageId}
    ORDER BY r.revision DESC
    LIMIT ${limit}`;
}

/** The latest changes across a wiki, newest first. */
export function selectRecentChanges(db: Db, wikiId: string, limit: number): Promise<ChangeRow[]> {
  return db<ChangeRow>`
    SELECT r.page_id, r.revision, r.action, r.path, r.title, r.content_hash,
      r.author_account_id, r.source, r.created_at, a.name AS author_name, a.email AS author_email,
      p.path AS current_path
    FROM page_revisions r
      LEFT JOIN accounts a ON a.id = r.author_account_id
      LEFT JOIN pages p ON p.id = r.page_id
    WHERE r.wiki_id = ${wikiId}
    ORDER BY r.created_at DESC, r.page_id, r.revision DESC
    LIMIT ${limit}`;
}

/**
 * The newest revision written at this path key (of a page since deleted or renamed), or null.
 * Scans the wiki's revisions: only the not-found page and old history links ask for it.
 */
export async function selectLastRevisionAt(
  db: Db,
  wikiId: string,
  pathKey: string,
): Promise<HistoryRow | null> {
  const rows = await db<HistoryRow>`
    SELECT r.page_id, r.revision, r.action, r.path, r.title, r.content_hash,
      r.author_account_id, r.source, r.created_at, a.name AS author_name, a.email AS author_email
    FROM page_revisions r LEFT JOIN accounts a ON a.id = r.author_account_id
    WHERE r.wiki_id = ${wikiId} AND replace(lower(r.path), '_', ' ') = ${pathKey}
    ORDER BY r.created_at DESC, r.revision DESC
    LIMIT 1`;
  return rows[0] ?? null;
}

/** The pages changed last, for a wiki's home. */
export function selectRecentPages(
  db: Db,
  wikiId: string,
  limit: number,
): Promise<{ path: string; title: string; updated_at: Date }[]> {
  return db`
    SELECT path, title, updated_at FROM pages WHERE wiki_id = ${wikiId}
    ORDER BY updated_at DESC, path_key
    LIMIT ${limit}`;
}

/** How many pages a wiki has. */
export async function countPages(db: Db, wikiId: string): Promise<number> {
  const rows = await db<
    { n: number }
  >`SELECT count(*)::int AS n FROM pages WHERE wiki_id = ${wikiId}`;
  return rows[0]!.n;
}

/** Deletes a wiki with everything in it (pages, history, chunks, tokens cascade). */
export async function deleteWikiRow(db: Db, id: string): Promise<boolean> {
  const rows = await db`DELETE FROM wikis WHERE id = ${id} RETURNING 1`;
  return rows.length > 0;
}

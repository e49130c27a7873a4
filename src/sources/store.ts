/**
 * The Git source state of a synced space, as reads and writes of its pages consult it: whether
 * it is synced, the commit a revision came from, failing syncs. The source's row is kept by
 * `src/sync/`, which builds on pages (a sync writes them); pages, search and ask build on this.
 *
 * @module
 */
import type { Db } from "../db/db.ts";

/** Whether the space is synced from Git (its pages are written by syncs only). */
export async function isGitSynced(db: Db, wikiId: string): Promise<boolean> {
  return (await db`SELECT 1 FROM git_sources WHERE wiki_id = ${wikiId}`).length > 0;
}

/** A page at a revision, as search results, pages and citations name it. */
export type PageAtRevision = { wiki: string; page: string; revision: number };

/**
 * For pages of spaces synced from Git: the commit each revision came from (null for a
 * revision not written by a sync) and the space's last successful sync.
 */
export async function selectSourceCommits(
  db: Db,
  items: PageAtRevision[],
): Promise<
  {
    wiki: string;
    page: string;
    revision: number;
    source_commit: string | null;
    last_synced_at: Date | null;
  }[]
> {
  if (items.length === 0) return [];
  const wanted = items.map((i) => ({ wiki: i.wiki, page: i.page, revision: i.revision }));
  return await db`
    SELECT q.wiki, q.page, q.revision, r.source_commit, g.last_synced_at
    FROM jsonb_to_recordset(${JSON.stringify(wanted)}::text::jsonb)
      AS q(wiki text, page text, revision int)
    JOIN git_sources g ON g.wiki_id = q.wiki
    JOIN pages p ON p.wiki_id = q.wiki AND p.path = q.page
    LEFT JOIN page_revisions r ON r.page_id = p.id AND r.revision = q.revision`;
}

/** Synced spaces among these whose latest syncs failed, with the reason. */
export function selectFailingSources(
  db: Db,
  wikiIds: string[],
): Promise<
  { wiki_id: string; failures: number; last_error: string | null; last_synced_at: Date | null }[]
> {
  return db`
    SELECT wiki_id, failures, last_error, last_synced_at FROM git_sources
    WHERE wiki_id = ANY(${wikiIds}::text[]) AND failures > 0
    ORDER BY wiki_id`;
}

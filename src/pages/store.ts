import type { Db } from "../db/db.ts";
import type { ParsedLink } from "../markdown/links.ts";

/** A page as stored. */
export type PageRow = {
  id: number;
  wiki_id: string;
  path: string;
  path_key: string;
  name_key: string;
  title: string;
  markdown: string;
  revision: number;
  content_hash: string;
  created_at: Date;
  updated_at: Date;
};

/** A page without its body, for listings. */
export type PageHead = Omit<PageRow, "markdown">;

/** One stored revision of a page. */
export type RevisionRow = {
  page_id: number;
  revision: number;
  action: "create" | "update" | "rename" | "delete";
  path: string;
  title: string;
  markdown: string;
  content_hash: string;
  author_account_id: string | null;
  source: string;
  created_at: Date;
};

/** A link with the page at its other end (null while that page does not exist). */
export type LinkRow = {
  from_page_id: number;
  position: number;
  kind: "wikilink" | "markdown";
  target: string;
  section: string | null;
  label: string | null;
  to_page_id: number | null;
  other_path: string | null;
  other_title: string | null;
};

/** The page at `pathKey`, locked for the rest of the transaction. */
export async function lockPage(tx: Db, wikiId: string, pathKey: string): Promise<PageRow | null> {
  const rows = await tx<PageRow>`
    SELECT * FROM pages WHERE wiki_id = ${wikiId} AND path_key = ${pathKey} FOR UPDATE`;
  return rows[0] ?? null;
}

/** The page at `pathKey`, or null. */
export async function selectPage(db: Db, wikiId: string, pathKey: string): Promise<PageRow | null> {
  const rows = await db<PageRow>`
    SELECT * FROM pages WHERE wiki_id = ${wikiId} AND path_key = ${pathKey}`;
  return rows[0] ?? null;
}

/** The page with this id in this wiki, or null. */
export async function selectPageById(db: Db, wikiId: string, id: number): Promise<PageRow | null> {
  const rows = await db<PageRow>`SELECT * FROM pages WHERE wiki_id = ${wikiId} AND id = ${id}`;
  return rows[0] ?? null;
}

/** Pages whose path or last segment is close to `key`, for "did you mean" suggestions. */
export async function selectSimilarPaths(db: Db, wikiId: string, key: string): Promise<string[]> {
  const rows = await db<{ path: string }>`
    SELECT path FROM pages
    WHERE wiki_id = ${wikiId}
      AND (name_key = ${key.slice(key.lastIndexOf("/") + 1)} OR path_key LIKE ${`%${
    escapeLike(key)
  }%`})
    ORDER BY length(path), path
    LIMIT 5`;
  return rows.map((r) => r.path);
}

/** Inserts a new page at revision 1; returns null when another writer created it first. */
export async function insertPage(
  tx: Db,
  page: Pick<
    PageRow,
    "wiki_id" | "path" | "path_key" | "name_key" | "title" | "markdown" | "content_hash"
  >,
): Promise<PageRow | null> {
  const rows = await tx<PageRow>`
    INSERT INTO pages (wiki_id, path, path_key, name_key, title, markdown, revision, content_hash)
    VALUES (${page.wiki_id}, ${page.path}, ${page.path_key}, ${page.name_key}, ${page.title},
            ${page.markdown}, 1, ${page.content_hash})
    ON CONFLICT (wiki_id, path_key) DO NOTHING
    RETURNING *`;
  return rows[0] ?? null;
}

/** Writes new content (and possibly a new path) as the next revision. */
export async function updatePage(
  tx: Db,
  id: number,
  page: Pick<PageRow, "path" | "path_key" | "name_key" | "title" | "markdown" | "content_hash">,
): Promise<PageRow> {
  const rows = await tx<PageRow>`
    UPDATE pages SET path = ${page.path}, path_key = ${page.path_key}, name_key = ${page.name_key},
      title = ${page.title}, markdown = ${page.markdown}, content_hash = ${page.content_hash},
      revision = revision + 1, updated_at = now()
    WHERE id = ${id}
    RETURNING *`;
  return rows[0]!;
}

/** Records a revision of a page in its history. */
export async function insertRevision(
  tx: Db,
  page: Pick<
    PageRow,
    "id" | "wiki_id" | "revision" | "path" | "title" | "markdown" | "content_hash"
  >,
  action: RevisionRow["action"],
  by: { author: string | null; source: string },
): Promise<void> {
  await tx`
    INSERT INTO page_revisions
      (page_id, revision, wiki_id, action, path, title, markdown, content_hash, author_account_id, source)
    VALUES (${page.id}, ${page.revision}, ${page.wiki_id}, ${action}, ${page.path}, ${page.title},
            ${page.markdown}, ${page.content_hash}, ${by.author}, ${by.source})`;
}

/** Removes a page; its links and chunks go with it, links to it become missing. */
export async function deletePageRow(tx: Db, id: number): Promise<void> {
  await tx`DELETE FROM pages WHERE id = ${id}`;
}

/** Replaces a page's outgoing links. */
export async function replaceLinks(tx: Db, wikiId: string, pageId: number, links: ParsedLink[]) {
  await tx`DELETE FROM links WHERE from_page_id = ${pageId}`;
  if (links.length === 0) return;
  const rows = links.map((l, position) => ({
    position,
    kind: l.kind,
    target: l.target,
    target_key: l.targetKey,
    section: l.section,
    label: l.label,
  }));
  await tx`
    INSERT INTO links (from_page_id, position, wiki_id, kind, target, target_key, section, label)
    SELECT ${pageId}, r.position, ${wikiId}, r.kind, r.target, r.target_key, r.section, r.label
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb)
      AS r(position int, kind text, target text, target_key text, section text, label text)`;
}

/**
 * Points links at the pages they name: the page's own links, and every link in the wiki
 * whose target key is one of `keys` (the keys a write added or freed). A full path match
 * wins over a last-segment match; among those, the shortest path.
 */
export async function resolveLinks(
  tx: Db,
  wikiId: string,
  pageId: number | null,
  keys: string[],
): Promise<void> {
  await tx`
    UPDATE links l SET to_page_id = (
      SELECT p.id FROM pages p
      WHERE p.wiki_id = l.wiki_id AND (p.path_key = l.target_key OR p.name_key = l.target_key)
      ORDER BY (p.path_key = l.target_key) DESC, length(p.path_key), p.path_key
      LIMIT 1)
    WHERE l.wiki_id = ${wikiId}
      AND (l.from_page_id = ${pageId ?? -1} OR l.target_key = ANY(${keys}::text[]))`;
}

/** Outgoing links of a page, in order, with the pages they reach. */
export function selectLinksFrom(db: Db, pageId: number): Promise<LinkRow[]> {
  return db<LinkRow>`
    SELECT l.from_page_id, l.position, l.kind, l.target, l.section, l.label, l.to_page_id,
      p.path AS other_path, p.title AS other_title
    FROM links l LEFT JOIN pages p ON p.id = l.to_page_id
    WHERE l.from_page_id = ${pageId}
    ORDER BY l.position`;
}

/** Links from other pages to this one, with the pages they come from. */
export function selectLinksTo(db: Db, pageId: number): Promise<LinkRow[]> {
  return db<LinkRow>`
    SELECT l.from_page_id, l.position, l.kind, l.target, l.section, l.label, l.to_page_id,
      p.path AS other_path, p.title AS other_title
    FROM links l JOIN pages p ON p.id = l.from_page_id
    WHERE l.to_page_id = ${pageId}
    ORDER BY p.path, l.position`;
}

/** Link targets in the wiki that no page answers yet, with how many links want each. */
export function selectMissingTargets(
  db: Db,
  wikiId: string,
  limit: number,
): Promise<{ target: string; links: number }[]> {
  return db<{ target: string; links: number }>`
    SELECT min(target) AS target, count(*)::int AS links
    FROM links WHERE wiki_id = ${wikiId} AND to_page_id IS NULL
    GROUP BY target_key
    ORDER BY count(*) DESC, min(target)
    LIMIT ${limit}`;
}

/** A page's history, newest first. */
export function selectRevisions(db: Db, pageId: number): Promise<Omit<RevisionRow, "markdown">[]> {
  return db`
    SELECT page_id, revision, action, path, title, content_hash, author_account_id, source, created_at
    FROM page_revisions WHERE page_id = ${pageId}
    ORDER BY revision DESC`;
}

/** A page's history, newest first, below revision `before` (keyset paging). */
export function selectRevisionPage(
  db: Db,
  pageId: number,
  options: { before: number | null; limit: number },
): Promise<Omit<RevisionRow, "markdown" | "author_account_id">[]> {
  return db`
    SELECT page_id, revision, action, path, title, content_hash, source, created_at
    FROM page_revisions
    WHERE page_id = ${pageId} AND (${options.before}::int IS NULL OR revision < ${options.before})
    ORDER BY revision DESC
    LIMIT ${options.limit}`;
}

/** One revision of a page, or null. */
export async function selectRevision(
  db: Db,
  pageId: number,
  revision: number,
): Promise<RevisionRow | null> {
  const rows = await db<RevisionRow>`
    SELECT * FROM page_revisions WHERE page_id = ${pageId} AND revision = ${revision}`;
  return rows[0] ?? null;
}

/** A page of a wiki's pages by path, after `afterKey` (keyset paging), under `prefix` if given. */
export function selectPageHeads(
  db: Db,
  wikiId: string,
  options: { afterKey: string | null; limit: number; prefix?: string | null },
): Promise<PageHead[]> {
  const under = options.prefix ? `${escapeLike(options.prefix)}/%` : null;
  return db<PageHead>`
    SELECT id, wiki_id, path, path_key, name_key, title, revision, content_hash, created_at, updated_at
    FROM pages
    WHERE wiki_id = ${wikiId} AND (${options.afterKey}::text IS NULL OR path_key > ${options.afterKey})
      AND (${under}::text IS NULL OR path_key LIKE ${under})
    ORDER BY path_key
    LIMIT ${options.limit}`;
}

/** The hash and title of every page of a wiki, by path key (for imports). */
export async function selectPageHashes(db: Db, wikiId: string): Promise<Map<string, string>> {
  const rows = await db<{ path_key: string; content_hash: string }>`
    SELECT path_key, content_hash FROM pages WHERE wiki_id = ${wikiId}`;
  return new Map(rows.map((r) => [r.path_key, r.content_hash]));
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}

/** One recorded use of a page by an assistant. */
export type PageUse = {
  wiki_id: string;
  page_id: number;
  page_path: string;
  revision: number;
  account_id: string | null;
  credential_kind: string | null;
  credential_id: string | null;
  client_name: string | null;
  query: string | null;
  note: string | null;
};

/** Records a use; returns how many uses the page has now. */
export async function insertPageUse(tx: Db, use: PageUse): Promise<number> {
  await tx`
    INSERT INTO page_uses (wiki_id, page_id, page_path, revision, account_id, credential_kind,
      credential_id, client_name, query, note)
    VALUES (${use.wiki_id}, ${use.page_id}, ${use.page_path}, ${use.revision}, ${use.account_id},
      ${use.credential_kind}, ${use.credential_id}, ${use.client_name}, ${use.query}, ${use.note})`;
  const rows = await tx<
    { n: number }
  >`SELECT count(*)::int AS n FROM page_uses WHERE page_id = ${use.page_id}`;
  return rows[0]!.n;
}

/** Links from these pages to pages that do not exist yet. */
export function selectMissingLinksFrom(
  db: Db,
  pageIds: number[],
): Promise<{ target: string; from_path: string }[]> {
  return db`
    SELECT DISTINCT ON (l.target_key) l.target, p.path AS from_path
    FROM links l JOIN pages p ON p.id = l.from_page_id
    WHERE l.from_page_id = ANY(${pageIds}::bigint[]) AND l.to_page_id IS NULL
    ORDER BY l.target_key, p.path
    LIMIT 20`;
}

/** A batch of a wiki's pages with their markdown, by path key after `afterKey` (for exports). */
export function selectPageTexts(
  db: Db,
  wikiId: string,
  afterKey: string | null,
  limit: number,
): Promise<{ path: string; path_key: string; markdown: string }[]> {
  return db<{ path: string; path_key: string; markdown: string }>`
    SELECT path, path_key, markdown FROM pages
    WHERE wiki_id = ${wikiId} AND (${afterKey}::text IS NULL OR path_key > ${afterKey})
    ORDER BY path_key LIMIT ${limit}`;
}

import type { Db } from "../db/db.ts";
import type { PageRow } from "../db/page_row.ts";
import { linkIdentity, type ParsedLink } from "../markdown/links.ts";

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
  target_key: string;
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

/** The pages at these path keys, locked for the rest of the transaction (bulk import). */
export function lockPages(tx: Db, wikiId: string, pathKeys: string[]): Promise<PageRow[]> {
  return tx<PageRow>`
    SELECT * FROM pages WHERE wiki_id = ${wikiId} AND path_key = ANY(${pathKeys}::text[])
    ORDER BY path_key FOR UPDATE`;
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

/**
 * `insertPage` for many pages of one wiki in one statement; pages another writer created
 * first are left out of the result.
 */
export function insertPages(
  tx: Db,
  wikiId: string,
  pages: Pick<PageRow, "path" | "path_key" | "name_key" | "title" | "markdown" | "content_hash">[],
): Promise<PageRow[]> {
  return tx<PageRow>`
    INSERT INTO pages (wiki_id, path, path_key, name_key, title, markdown, revision, content_hash)
    SELECT ${wikiId}, r.path, r.path_key, r.name_key, r.title, r.markdown, 1, r.content_hash
    FROM jsonb_to_recordset(${JSON.stringify(pages)}::text::jsonb)
      AS r(path text, path_key text, name_key text, title text, markdown text, content_hash text)
    ON CONFLICT (wiki_id, path_key) DO NOTHING
    RETURNING *`;
}

/** `updatePage` for many pages (new content, same path) in one statement. */
export function updatePages(
  tx: Db,
  pages: (Pick<PageRow, "id" | "title" | "markdown" | "content_hash">)[],
): Promise<PageRow[]> {
  return tx<PageRow>`
    UPDATE pages p SET title = r.title, markdown = r.markdown, content_hash = r.content_hash,
      revision = p.revision + 1, updated_at = now()
    FROM jsonb_to_recordset(${JSON.stringify(pages)}::text::jsonb)
      AS r(id bigint, title text, markdown text, content_hash text)
    WHERE p.id = r.id
    RETURNING p.*`;
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
  by: RevisionBy,
): Promise<void> {
  await tx`
    INSERT INTO page_revisions
      (page_id, revision, wiki_id, action, path, title, markdown, content_hash, author_account_id,
       source, source_commit, source_author, proposed_by_account_id, proposed_client)
    VALUES (${page.id}, ${page.revision}, ${page.wiki_id}, ${action}, ${page.path}, ${page.title},
            ${page.markdown}, ${page.content_hash}, ${by.author}, ${by.source},
            ${by.commit?.id ?? null}, ${by.commit?.author ?? null},
            ${by.proposedBy ?? null}, ${by.proposedClient ?? null})`;
}

/** Who a revision is by; a Git sync adds the commit and its author. */
export type RevisionBy = {
  author: string | null;
  source: string;
  commit?: { id: string; author: string | null } | undefined;
  proposedBy?: string | null;
  proposedClient?: string | null;
};

/** `insertRevision` for many pages, each with its action, in one statement. */
export async function insertRevisions(
  tx: Db,
  revisions: {
    page: Pick<
      PageRow,
      "id" | "wiki_id" | "revision" | "path" | "title" | "markdown" | "content_hash"
    >;
    action: RevisionRow["action"];
  }[],
  by: RevisionBy,
): Promise<void> {
  if (revisions.length === 0) return;
  const rows = revisions.map(({ page, action }) => ({
    page_id: page.id,
    revision: page.revision,
    wiki_id: page.wiki_id,
    action,
    path: page.path,
    title: page.title,
    markdown: page.markdown,
    content_hash: page.content_hash,
  }));
  await tx`
    INSERT INTO page_revisions
      (page_id, revision, wiki_id, action, path, title, markdown, content_hash, author_account_id,
       source, source_commit, source_author, proposed_by_account_id, proposed_client)
    SELECT r.page_id, r.revision, r.wiki_id, r.action, r.path, r.title, r.markdown, r.content_hash,
      ${by.author}, ${by.source}, ${by.commit?.id ?? null}, ${by.commit?.author ?? null},
      ${by.proposedBy ?? null}, ${by.proposedClient ?? null}
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb)
      AS r(page_id bigint, revision int, wiki_id text, action text, path text, title text,
        markdown text, content_hash text)`;
}

/** Removes a page; its links and chunks go with it, links to it become missing. */
export async function deletePageRow(tx: Db, id: number): Promise<void> {
  await tx`DELETE FROM pages WHERE id = ${id}`;
}

/**
 * Replaces a page's outgoing links: one row per distinct link (`linkIdentity`), at the
 * position of its first occurrence among `links`. Repeats reach the same page and readers list
 * each target once, so storing them would only multiply the work of a write: a page of
 * 100,000 `[[Mi]]` stores one row.
 */
export async function replaceLinks(tx: Db, wikiId: string, pageId: number, links: ParsedLink[]) {
  await replaceLinksOfPages(tx, wikiId, [{ pageId, links }]);
}

/** `replaceLinks` for many pages of one wiki: one delete and one insert. */
export async function replaceLinksOfPages(
  tx: Db,
  wikiId: string,
  pages: { pageId: number; links: ParsedLink[] }[],
) {
  await tx`DELETE FROM links WHERE from_page_id = ANY(${pages.map((p) => p.pageId)}::bigint[])`;
  const rows = pages.flatMap(({ pageId, links }) => {
    const first = new Map<string, number>();
    links.forEach((l, position) => {
      const identity = linkIdentity(l);
      if (!first.has(identity)) first.set(identity, position);
    });
    return [...first.values()].map((position) => {
      const l = links[position]!;
      return {
        from_page_id: pageId,
        position,
        kind: l.kind,
        target: l.target,
        target_key: l.targetKey,
        section: l.section,
        label: l.label,
      };
    });
  });
  if (rows.length === 0) return;
  await tx`
    INSERT INTO links (from_page_id, position, wiki_id, kind, target, target_key, section, label)
    SELECT r.from_page_id, r.position, ${wikiId}, r.kind, r.target, r.target_key, r.section, r.label
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb)
      AS r(from_page_id bigint, position int, kind text, target text, target_key text, section text,
        label text)`;
}

/**
 * Points links at the pages they name: the page's own links, and every link in the wiki
 * whose target key is one of `keys` (the keys a write added or freed), or ends with one of them
 * after a `/` and reaches no page yet. A full path match wins; then a page whose path ends the
 * target (`keySuffixes`: a link written from the root of the site the wiki was imported from,
 * the longest such path first); a one-segment target meets a page by its last segment, the
 * shortest path first. Set-based: each distinct target key is looked up once (not once per
 * link row), and only rows that change are written. `selectLinkTargets` (src/spaces/store.ts)
 * reads links by the same rule.
 */
export async function resolveLinks(
  tx: Db,
  wikiId: string,
  pageId: number | null,
  keys: string[],
): Promise<void> {
  await resolveLinksOfPages(tx, wikiId, pageId === null ? [] : [pageId], keys);
}

/** `resolveLinks` for the links of many pages and the keys a batch of writes added. */
export async function resolveLinksOfPages(
  tx: Db,
  wikiId: string,
  pageIds: number[],
  keys: string[],
): Promise<void> {
  await tx`
    WITH affected AS (
      SELECT from_page_id, position, target_key, to_page_id FROM links
      WHERE wiki_id = ${wikiId}
        AND (from_page_id = ANY(${pageIds}::bigint[]) OR target_key = ANY(${keys}::text[]))
      UNION
      SELECT l.from_page_id, l.position, l.target_key, l.to_page_id
      FROM unnest(${keys}::text[]) AS k(key)
      JOIN links l ON l.wiki_id = ${wikiId} AND l.to_page_id IS NULL
        AND right(l.target_key, length(k.key) + 1) = '/' || k.key
      WHERE strpos(k.key, '/') > 0
    ), best AS (
      SELECT k.target_key, (
        SELECT p.id FROM pages p
        WHERE p.wiki_id = ${wikiId} AND (p.path_key = k.target_key OR p.name_key = k.target_key
          OR p.path_key = ANY(ARRAY(SELECT array_to_string(s.parts[i:], '/')
            FROM (SELECT string_to_array(k.target_key, '/') AS parts) s,
              generate_series(2, cardinality(s.parts) - 1) AS i)))
        ORDER BY (p.path_key = k.target_key) DESC,
          CASE WHEN strpos(k.target_key, '/') > 0 THEN -length(p.path_key)
            ELSE length(p.path_key) END,
          p.path_key
        LIMIT 1) AS page_id
      FROM (SELECT DISTINCT target_key FROM affected) k
    )
    UPDATE links l SET to_page_id = b.page_id
    FROM affected a JOIN best b ON b.target_key = a.target_key
    WHERE l.from_page_id = a.from_page_id AND l.position = a.position
      AND a.to_page_id IS DISTINCT FROM b.page_id`;
}

/** Outgoing links of a page, in order, with the pages they reach. */
export function selectLinksFrom(db: Db, pageId: number): Promise<LinkRow[]> {
  return db<LinkRow>`
    SELECT l.from_page_id, l.position, l.kind, l.target, l.target_key, l.section, l.label,
      l.to_page_id,
      p.path AS other_path, p.title AS other_title
    FROM links l LEFT JOIN pages p ON p.id = l.to_page_id
    WHERE l.from_page_id = ${pageId}
    ORDER BY l.position`;
}

/** Links from other pages to this one, with the pages they come from. */
export function selectLinksTo(db: Db, pageId: number): Promise<LinkRow[]> {
  return db<LinkRow>`
    SELECT l.from_page_id, l.position, l.kind, l.target, l.target_key, l.section, l.label,
      l.to_page_id,
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

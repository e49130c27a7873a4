import type { Db } from "../db/db.ts";

/** A version of a space as stored. */
export type VersionRow = {
  id: number;
  wiki_id: string;
  name: string;
  source_ref: string | null;
  source_commit: string | null;
  created_by: string | null;
  created_at: Date;
  pages: number;
};

/** A page of a version: the page at its pinned revision, from `page_revisions`. */
export type VersionPageRow = {
  page_id: number;
  revision: number;
  path: string;
  path_key: string;
  title: string;
  markdown: string;
  content_hash: string;
  created_at: Date;
  /** The live page's revision (null: the page was deleted since). */
  live_revision: number | null;
};

/**
 * Publishes the wiki's live pages as a version in one statement (one snapshot): a row, and
 * each live page's id, revision and path key. Null when the name is taken (in any case).
 */
export async function insertVersion(
  db: Db,
  v: { wikiId: string; name: string; sourceRef?: string | null; sourceCommit?: string | null },
  createdBy: string | null,
): Promise<VersionRow | null> {
  const rows = await db<VersionRow>`
    WITH v AS (
      INSERT INTO space_versions (wiki_id, name, source_ref, source_commit, created_by)
      VALUES (${v.wikiId}, ${v.name}, ${v.sourceRef ?? null}, ${v.sourceCommit ?? null},
        ${createdBy})
      ON CONFLICT DO NOTHING
      RETURNING *
    ), p AS (
      INSERT INTO version_pages (version_id, page_id, revision, path_key)
      SELECT v.id, p.id, p.revision, p.path_key FROM v JOIN pages p ON p.wiki_id = v.wiki_id
      RETURNING 1
    )
    SELECT v.*, (SELECT count(*) FROM p)::int AS pages FROM v`;
  return rows[0] ?? null;
}

/** The wiki's versions, newest first, with their page counts. */
export function selectVersions(db: Db, wikiId: string): Promise<VersionRow[]> {
  return db<VersionRow>`
    SELECT v.*, (SELECT count(*) FROM version_pages p WHERE p.version_id = v.id)::int AS pages
    FROM space_versions v WHERE v.wiki_id = ${wikiId}
    ORDER BY v.created_at DESC, v.id DESC`;
}

/**
 * In one statement: the version named `name` (case-insensitive) of each wiki, or its default
 * when `name` is null, with the default's name and every version name (for errors and listings).
 */
export function selectVersionChoice(db: Db, wikiIds: string[], name: string | null): Promise<
  {
    wiki_id: string;
    id: number | null;
    name: string | null;
    created_at: Date | null;
    default_name: string | null;
    names: string[];
  }[]
> {
  return db`
    SELECT w.id AS wiki_id, v.id, v.name, v.created_at, d.name AS default_name,
      ARRAY(SELECT a.name FROM space_versions a WHERE a.wiki_id = w.id
        ORDER BY a.created_at, a.id) AS names
    FROM wikis w
    LEFT JOIN space_versions d ON d.id = w.default_version_id
    LEFT JOIN space_versions v ON v.wiki_id = w.id AND CASE WHEN ${name}::text IS NULL
      THEN v.id = w.default_version_id ELSE lower(v.name) = lower(${name}::text) END
    WHERE w.id = ANY(${wikiIds}::text[])`;
}

/** Each given wiki's versions by name (oldest first) and its default, for listings. */
export function selectVersionNames(
  db: Db,
  wikiIds: string[],
): Promise<{ wiki_id: string; names: string[]; default_name: string | null }[]> {
  return db`
    SELECT w.id AS wiki_id, d.name AS default_name,
      ARRAY(SELECT a.name FROM space_versions a WHERE a.wiki_id = w.id
        ORDER BY a.created_at, a.id) AS names
    FROM wikis w LEFT JOIN space_versions d ON d.id = w.default_version_id
    WHERE w.id = ANY(${wikiIds}::text[])`;
}

/** Renames a version; false when the new name is taken. */
export async function updateVersionName(db: Db, id: number, name: string): Promise<boolean> {
  const rows = await db`
    UPDATE space_versions SET name = ${name} WHERE id = ${id}
      AND NOT EXISTS (SELECT 1 FROM space_versions o WHERE o.wiki_id = space_versions.wiki_id
        AND lower(o.name) = lower(${name}) AND o.id <> ${id})
    RETURNING id`;
  return rows.length > 0;
}

/** Deletes a version unless it is its wiki's default; false when it is the default. */
export async function deleteVersionRow(db: Db, id: number): Promise<boolean> {
  const rows = await db`
    DELETE FROM space_versions v WHERE v.id = ${id}
      AND NOT EXISTS (SELECT 1 FROM wikis w WHERE w.default_version_id = v.id)
    RETURNING id`;
  return rows.length > 0;
}

/** Sets (or, with null, clears: "latest") the wiki's default version. */
export async function updateDefaultVersion(
  db: Db,
  wikiId: string,
  versionId: number | null,
): Promise<void> {
  await db`UPDATE wikis SET default_version_id = ${versionId} WHERE id = ${wikiId}`;
}

/** The Git refs a sync publishes as versions (null: none). */
export async function selectVersionPattern(db: Db, wikiId: string): Promise<string | null> {
  const rows = await db<{ version_pattern: string | null }>`
    SELECT version_pattern FROM wikis WHERE id = ${wikiId}`;
  return rows[0]?.version_pattern ?? null;
}

/** Sets the Git refs a sync publishes as versions. */
export async function updateVersionPattern(
  db: Db,
  wikiId: string,
  pattern: string | null,
): Promise<void> {
  await db`UPDATE wikis SET version_pattern = ${pattern} WHERE id = ${wikiId}`;
}

/** A version's pages with their pinned revision and the live revision, by path key. */
export function selectVersionPageIndex(
  db: Db,
  versionId: number,
): Promise<
  { page_id: number; revision: number; path_key: string; live_revision: number | null }[]
> {
  return db`
    SELECT vp.page_id::float8 AS page_id, vp.revision, vp.path_key, p.revision AS live_revision
    FROM version_pages vp LEFT JOIN pages p ON p.id = vp.page_id
    WHERE vp.version_id = ${versionId}`;
}

/**
 * The pages of a version whose pinned revision is no longer the live one (changed, renamed or
 * deleted since): the only pages whose chunks a version search cannot share with the live index.
 */
export async function selectDivergedPages(db: Db, versionId: number): Promise<number[]> {
  const rows = await db<{ page_id: number }>`
    SELECT vp.page_id::float8 AS page_id FROM version_pages vp
    LEFT JOIN pages p ON p.id = vp.page_id
    WHERE vp.version_id = ${versionId} AND p.revision IS DISTINCT FROM vp.revision`;
  return rows.map((r) => r.page_id);
}

/** What an export of a version holds before compression: its pages' text at their revisions. */
export async function selectVersionExportSize(db: Db, versionId: number): Promise<number> {
  const [row] = await db<{ bytes: string }>`
    SELECT coalesce(sum(octet_length(r.markdown)), 0)::bigint AS bytes
    FROM version_pages vp
    JOIN page_revisions r ON r.page_id = vp.page_id AND r.revision = vp.revision
    WHERE vp.version_id = ${versionId}`;
  return Number(row!.bytes);
}

/** Pages of a version by path key, at their pinned revisions, with the live revision. */
export function selectVersionPages(
  db: Db,
  versionId: number,
  keys: string[] | null,
  page: { afterKey: string | null; limit: number; prefix: string | null },
): Promise<VersionPageRow[]> {
  return db<VersionPageRow>`
    SELECT vp.page_id::float8 AS page_id, vp.revision, r.path, vp.path_key, r.title, r.markdown,
      r.content_hash, r.created_at, p.revision AS live_revision
    FROM version_pages vp
    JOIN page_revisions r ON r.page_id = vp.page_id AND r.revision = vp.revision
    LEFT JOIN pages p ON p.id = vp.page_id
    WHERE vp.version_id = ${versionId}
      AND (${keys}::text[] IS NULL OR vp.path_key = ANY(${keys}::text[]))
      AND (${page.afterKey}::text IS NULL OR vp.path_key > ${page.afterKey}::text)
      AND (${page.prefix}::text IS NULL OR vp.path_key LIKE ${page.prefix}::text || '/%')
    ORDER BY vp.path_key
    LIMIT ${page.limit}`;
}

/** The revisions of the given pages, with the chunkable text (a version search's diverged pages). */
export function selectRevisionsOf(
  db: Db,
  pairs: { page_id: number; revision: number }[],
): Promise<
  {
    page_id: number;
    revision: number;
    wiki_id: string;
    path: string;
    title: string;
    markdown: string;
    created_at: Date;
  }[]
> {
  return db`
    SELECT r.page_id::float8 AS page_id, r.revision, r.wiki_id, r.path, r.title, r.markdown,
      r.created_at
    FROM jsonb_to_recordset(${JSON.stringify(pairs)}::text::jsonb)
      AS x(page_id bigint, revision int)
    JOIN page_revisions r ON r.page_id = x.page_id AND r.revision = x.revision`;
}

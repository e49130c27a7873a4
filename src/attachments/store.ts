import type { Db } from "../db/db.ts";

/** An attachment without its bytes. */
export type AttachmentHead = {
  wiki_id: string;
  name: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: Date;
};

/** An attachment's row to store. */
export type AttachmentRow = {
  wikiId: string;
  name: string;
  contentType: string;
  bytes: Uint8Array;
  sha256: string;
  createdBy: string | null;
};

/** Stores an attachment unless the name is taken; true when it was stored. */
export async function insertAttachment(db: Db, row: AttachmentRow): Promise<boolean> {
  const rows = await db`
    INSERT INTO attachments (wiki_id, name, content_type, bytes, size, sha256, created_by)
    VALUES (${row.wikiId}, ${row.name}, ${row.contentType}, ${row.bytes}, ${row.bytes.length},
      ${row.sha256}, ${row.createdBy})
    ON CONFLICT (wiki_id, name) DO NOTHING
    RETURNING 1`;
  return rows.length > 0;
}

/** The SHA-256 of the wiki's file of this name, or null when there is none. */
export async function selectAttachmentSha(
  db: Db,
  wikiId: string,
  name: string,
): Promise<string | null> {
  const [row] = await db<{ sha256: string }>`
    SELECT sha256 FROM attachments WHERE wiki_id = ${wikiId} AND name = ${name}`;
  return row?.sha256 ?? null;
}

/**
 * Moves the wiki's file of this name (if any) into `attachment_versions` as its next version and
 * removes it; returns that version number, or null when there was no such file. Run inside the
 * transaction of a replace or a delete, so the old bytes are kept or nothing happens.
 */
export async function retireAttachment(
  db: Db,
  wikiId: string,
  name: string,
  retiredBy: string | null,
): Promise<number | null> {
  const [moved] = await db<{ version: number }>`
    WITH gone AS (
      DELETE FROM attachments WHERE wiki_id = ${wikiId} AND name = ${name}
      RETURNING wiki_id, name, content_type, bytes, size, sha256, created_by, created_at)
    INSERT INTO attachment_versions
      (wiki_id, name, version, content_type, bytes, size, sha256, created_by, created_at,
       retired_by)
    SELECT g.wiki_id, g.name,
      coalesce((SELECT max(v.version) FROM attachment_versions v
                WHERE v.wiki_id = g.wiki_id AND v.name = g.name), 0) + 1,
      g.content_type, g.bytes, g.size, g.sha256, g.created_by, g.created_at, ${retiredBy}
    FROM gone g
    RETURNING version`;
  return moved ? Number(moved.version) : null;
}

/** A kept earlier version of a file, with its bytes, or null. */
export async function selectAttachmentVersion(
  db: Db,
  wikiId: string,
  name: string,
  version: number,
): Promise<(AttachmentHead & { bytes: Uint8Array }) | null> {
  const rows = await db<AttachmentHead & { bytes: Uint8Array }>`
    SELECT wiki_id, name, content_type, size, sha256, created_at, bytes
    FROM attachment_versions
    WHERE wiki_id = ${wikiId} AND name = ${name} AND version = ${version}`;
  return rows[0] ?? null;
}

/** How many earlier versions each file of the wiki has kept, by name. */
export async function selectVersionCounts(db: Db, wikiId: string): Promise<Map<string, number>> {
  const rows = await db<{ name: string; n: number }>`
    SELECT name, count(*)::int AS n FROM attachment_versions
    WHERE wiki_id = ${wikiId} GROUP BY name`;
  return new Map(rows.map((r) => [r.name, Number(r.n)]));
}

/** One attachment with its bytes, or null. */
export async function selectAttachment(
  db: Db,
  wikiId: string,
  name: string,
): Promise<(AttachmentHead & { bytes: Uint8Array }) | null> {
  const rows = await db<AttachmentHead & { bytes: Uint8Array }>`
    SELECT wiki_id, name, content_type, size, sha256, created_at, bytes
    FROM attachments WHERE wiki_id = ${wikiId} AND name = ${name}`;
  return rows[0] ?? null;
}

/** The attachments of a wiki without their bytes, newest first. */
export function selectAttachmentHeads(
  db: Db,
  wikiId: string,
  limit = 200,
): Promise<AttachmentHead[]> {
  return db<AttachmentHead>`
    SELECT wiki_id, name, content_type, size, sha256, created_at
    FROM attachments WHERE wiki_id = ${wikiId} ORDER BY created_at DESC, name LIMIT ${limit}`;
}

/**
 * How many files a wiki holds and the bytes it stores for them (for its quota): its files'
 * and their earlier versions' (`versionBytes`, part of `bytes`), which are stored bytes too.
 */
export async function selectAttachmentUsage(
  db: Db,
  wikiId: string,
): Promise<{ files: number; bytes: number; versionBytes: number }> {
  const [row] = await db<{ files: number; bytes: string; version_bytes: string }>`
    SELECT (SELECT count(*)::int FROM attachments WHERE wiki_id = ${wikiId}) AS files,
      (SELECT coalesce(sum(size), 0)::bigint FROM attachments WHERE wiki_id = ${wikiId}) AS bytes,
      (SELECT coalesce(sum(size), 0)::bigint FROM attachment_versions
       WHERE wiki_id = ${wikiId}) AS version_bytes`;
  const versionBytes = Number(row!.version_bytes);
  return { files: row!.files, bytes: Number(row!.bytes) + versionBytes, versionBytes };
}

/** Deletes a kept earlier version of a file for good; false when there is no such version. */
export async function deleteAttachmentVersion(
  db: Db,
  wikiId: string,
  name: string,
  version: number,
): Promise<boolean> {
  const rows = await db`
    DELETE FROM attachment_versions
    WHERE wiki_id = ${wikiId} AND name = ${name} AND version = ${version}
    RETURNING 1`;
  return rows.length > 0;
}

/** What an export of the wiki holds before compression: its pages' and its files' bytes. */
export async function selectExportSize(db: Db, wikiId: string): Promise<number> {
  const [row] = await db<{ bytes: string }>`
    SELECT (SELECT coalesce(sum(octet_length(markdown)), 0) FROM pages WHERE wiki_id = ${wikiId})
      + (SELECT coalesce(sum(size), 0) FROM attachments WHERE wiki_id = ${wikiId}) AS bytes`;
  return Number(row!.bytes);
}

/**
 * The names, sizes and types of a wiki's attachments, by name (an export reads them a slice at
 * a time).
 */
export function selectAttachmentSizes(
  db: Db,
  wikiId: string,
): Promise<{ name: string; size: number; content_type: string }[]> {
  return db<{ name: string; size: number; content_type: string }>`
    SELECT name, size, content_type FROM attachments WHERE wiki_id = ${wikiId} ORDER BY name`;
}

/**
 * `length` bytes of an attachment from `offset` (0-based). An image or PDF does not compress,
 * so PostgreSQL keeps it uncompressed out of line and reads only the slice's own chunks.
 */
export async function selectAttachmentSlice(
  db: Db,
  wikiId: string,
  name: string,
  offset: number,
  length: number,
): Promise<Uint8Array | null> {
  const rows = await db<{ slice: Uint8Array }>`
    SELECT substring(bytes FROM ${offset + 1}::int FOR ${length}::int) AS slice
    FROM attachments WHERE wiki_id = ${wikiId} AND name = ${name}`;
  return rows[0]?.slice ?? null;
}

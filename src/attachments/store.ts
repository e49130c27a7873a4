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

/** Stores an attachment, replacing one of the same name in the wiki. */
export async function upsertAttachment(
  db: Db,
  row: {
    wikiId: string;
    name: string;
    contentType: string;
    bytes: Uint8Array;
    sha256: string;
    createdBy: string | null;
  },
): Promise<void> {
  await db`
    INSERT INTO attachments (wiki_id, name, content_type, bytes, size, sha256, created_by)
    VALUES (${row.wikiId}, ${row.name}, ${row.contentType}, ${row.bytes}, ${row.bytes.length},
      ${row.sha256}, ${row.createdBy})
    ON CONFLICT (wiki_id, name) DO UPDATE SET content_type = EXCLUDED.content_type,
      bytes = EXCLUDED.bytes, size = EXCLUDED.size, sha256 = EXCLUDED.sha256,
      created_by = EXCLUDED.created_by, created_at = now()`;
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

/** How many files a wiki holds and their bytes together (for its quota). */
export async function selectAttachmentUsage(
  db: Db,
  wikiId: string,
): Promise<{ files: number; bytes: number }> {
  const [row] = await db<{ files: number; bytes: string }>`
    SELECT count(*)::int AS files, coalesce(sum(size), 0)::bigint AS bytes
    FROM attachments WHERE wiki_id = ${wikiId}`;
  return { files: row!.files, bytes: Number(row!.bytes) };
}

/** What an export of the wiki holds before compression: its pages' and its files' bytes. */
export async function selectExportSize(db: Db, wikiId: string): Promise<number> {
  const [row] = await db<{ bytes: string }>`
    SELECT (SELECT coalesce(sum(octet_length(markdown)), 0) FROM pages WHERE wiki_id = ${wikiId})
      + (SELECT coalesce(sum(size), 0) FROM attachments WHERE wiki_id = ${wikiId}) AS bytes`;
  return Number(row!.bytes);
}

/** The names and sizes of a wiki's attachments, by name (an export reads them a slice at a time). */
export function selectAttachmentSizes(
  db: Db,
  wikiId: string,
): Promise<{ name: string; size: number }[]> {
  return db<{ name: string; size: number }>`
    SELECT name, size FROM attachments WHERE wiki_id = ${wikiId} ORDER BY name`;
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

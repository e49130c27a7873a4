import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { sha256HexOfBytes } from "../lib/sha256.ts";
import type { Db } from "../db/db.ts";
import { megabytes } from "./export_zip.ts";
import {
  type AttachmentHead,
  selectAttachment,
  selectAttachmentHeads,
  selectAttachmentUsage,
  upsertAttachment,
} from "./store.ts";

/** The largest attachment: 5 MB, enough for a screenshot or a short PDF. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

/**
 * The types a wiki stores, each recognised by its first bytes (never by the name or the type
 * the browser claims). SVG is refused: it is a document that can carry script, and a wiki's
 * files are served from the wiki's own origin.
 */
const TYPES: { type: string; ext: string[]; magic: (b: Uint8Array) => boolean }[] = [
  { type: "image/png", ext: ["png"], magic: (b) => starts(b, [0x89, 0x50, 0x4e, 0x47]) },
  { type: "image/jpeg", ext: ["jpg", "jpeg"], magic: (b) => starts(b, [0xff, 0xd8, 0xff]) },
  { type: "image/gif", ext: ["gif"], magic: (b) => starts(b, [0x47, 0x49, 0x46, 0x38]) },
  {
    type: "image/webp",
    ext: ["webp"],
    magic: (b) =>
      starts(b, [0x52, 0x49, 0x46, 0x46]) && starts(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
  },
  { type: "application/pdf", ext: ["pdf"], magic: (b) => starts(b, [0x25, 0x50, 0x44, 0x46]) },
];

/** The file names an attachment may have (as the table's CHECK says). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function starts(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
}

/** Whether a file name looks like one of the stored types (for importers picking files). */
export function isAttachmentName(name: string): boolean {
  const ext = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
  return TYPES.some((t) => t.ext.includes(ext));
}

/**
 * A file name made safe for the wiki's `-/files/` space: the last path segment, spaces and
 * other characters turned into `-`, at most 128 characters; null when nothing is left.
 */
export function attachmentName(given: string): string | null {
  const base = given.split(/[\\/]/).pop() ?? "";
  const name = base.normalize("NFKD").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-._]+/, "")
    .slice(-128);
  return NAME.test(name) ? name : null;
}

/** Where an attachment is served, relative to the site. */
export function attachmentHref(wikiId: string, name: string): string {
  return `/w/${wikiId}/-/files/${name}`;
}

/**
 * Stores a file in a wiki after checking its size and type (by content); the same name
 * replaces the earlier file. Returns its name and where it is served.
 */
export async function saveAttachment(
  deps: Pick<Deps, "db" | "config">,
  input: { wikiId: string; fileName: string; bytes: Uint8Array; accountId: string | null },
): Promise<{ name: string; href: string; contentType: string }> {
  const name = attachmentName(input.fileName);
  if (!name) throw new AppError("bad_request", `The file name "${input.fileName}" cannot be used`);
  if (input.bytes.length === 0) throw new AppError("bad_request", `The file "${name}" is empty`);
  if (input.bytes.length > MAX_ATTACHMENT_BYTES) {
    throw new AppError("payload_too_large", `The file "${name}" is over 5 MB`);
  }
  const type = TYPES.find((t) => t.magic(input.bytes));
  const ext = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
  if (!type || !type.ext.includes(ext)) {
    throw new AppError(
      "unsupported_media_type",
      `The file "${name}" is not a PNG, JPEG, GIF or WebP image or a PDF (SVG is not accepted)`,
    );
  }
  await requireRoomFor(deps, input.wikiId, name, input.bytes.length);
  await upsertAttachment(deps.db, {
    wikiId: input.wikiId,
    name,
    contentType: type.type,
    bytes: input.bytes,
    sha256: await sha256HexOfBytes(input.bytes),
    createdBy: input.accountId,
  });
  return { name, href: attachmentHref(input.wikiId, name), contentType: type.type };
}

/** A file of the wiki with its bytes, or null. */
export function findAttachment(
  db: Db,
  wikiId: string,
  name: string,
): Promise<(AttachmentHead & { bytes: Uint8Array }) | null> {
  return selectAttachment(db, wikiId, name);
}

/** The wiki's files (without their bytes), at most `limit`. */
export function listAttachments(db: Db, wikiId: string, limit = 200): Promise<AttachmentHead[]> {
  return selectAttachmentHeads(db, wikiId, limit);
}

/** What a wiki's files take against its quota (`SPACE_FILES_MAX`, `SPACE_FILES_MB`). */
export async function attachmentUsage(
  deps: Pick<Deps, "db" | "config">,
  wikiId: string,
): Promise<{ files: number; bytes: number; maxFiles: number; maxBytes: number }> {
  const used = await selectAttachmentUsage(deps.db, wikiId);
  return { ...used, maxFiles: deps.config.files.maxFiles, maxBytes: deps.config.files.maxBytes };
}

/**
 * Refuses a file that would take the wiki past its quota of files or bytes (issue 26.1): a
 * space's files are what its export and its storage hold, so both are bounded per space.
 */
async function requireRoomFor(
  deps: Pick<Deps, "db" | "config">,
  wikiId: string,
  name: string,
  size: number,
): Promise<void> {
  const usage = await attachmentUsage(deps, wikiId);
  if (usage.files + 1 > usage.maxFiles) {
    throw new AppError(
      "payload_too_large",
      `The wiki "${wikiId}" holds ${usage.files} files, its quota: "${name}" cannot be added (at most ${usage.maxFiles} files a space)`,
    );
  }
  if (usage.bytes + size > usage.maxBytes) {
    throw new AppError(
      "payload_too_large",
      `The file "${name}" (${megabytes(size)}) would take the wiki "${wikiId}" past its quota: ${
        megabytes(usage.bytes)
      } of ${megabytes(usage.maxBytes)} used`,
    );
  }
}

import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { sha256HexOfBytes } from "../lib/sha256.ts";
import { megabytes } from "../lib/megabytes.ts";
import {
  insertAttachment,
  retireAttachment,
  selectAttachmentSha,
  selectAttachmentUsage,
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

/** What became of an upload: stored under its name, or beside a file of that name, etc. */
export type SavedAttachment = {
  name: string;
  href: string;
  contentType: string;
  size: number;
  sha256: string;
  /**
   * `created`: stored under the name asked for; `renamed`: that name held other bytes, so the
   * file is stored under a suffixed name (`image-2.png`) and both are kept; `unchanged`: the
   * same bytes were already there under that name; `replaced`: an explicit replace, the old
   * bytes kept as `replacedVersion`.
   */
  status: "created" | "renamed" | "unchanged" | "replaced";
  replacedVersion: number | null;
};

/** Most suffixes tried for a free name (`image-2.png` … `image-1000.png`). */
const MAX_SUFFIX = 1000;

/**
 * Stores a file in a wiki after checking its size and type (by content). A name already taken
 * is never overwritten silently: the same bytes are the same file; other bytes are stored
 * beside it under a suffixed name, which the answer carries (so the editor's inserted line
 * points at the right file). With `replace`, the file of that name is replaced and its old
 * bytes kept as an earlier version.
 */
export async function saveAttachment(
  deps: Pick<Deps, "db" | "config">,
  input: {
    wikiId: string;
    fileName: string;
    bytes: Uint8Array;
    accountId: string | null;
    replace?: boolean;
  },
): Promise<SavedAttachment> {
  const { name, type } = checkUpload(input.fileName, input.bytes);
  const row = {
    wikiId: input.wikiId,
    name,
    contentType: type,
    bytes: input.bytes,
    sha256: await sha256HexOfBytes(input.bytes),
    createdBy: input.accountId,
  };
  const saved = (stored: string, status: SavedAttachment["status"], version: number | null) => ({
    name: stored,
    href: attachmentHref(input.wikiId, stored),
    contentType: type,
    size: input.bytes.length,
    sha256: row.sha256,
    status,
    replacedVersion: version,
  });
  // The quota counts what is stored (a space's `attachments`): bytes already there under the
  // name are not stored again, and a replaced file's old bytes leave the count for its versions.
  if (input.replace) {
    const version = await deps.db.transaction(async (tx) => {
      const retired = await retireAttachment(tx, input.wikiId, name, input.accountId);
      await requireRoomFor({ ...deps, db: tx }, input.wikiId, name, input.bytes.length);
      await insertAttachment(tx, row);
      return retired;
    });
    return saved(name, version === null ? "created" : "replaced", version);
  }
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const candidate = n === 1 ? name : suffixedName(name, n);
    const held = await selectAttachmentSha(deps.db, input.wikiId, candidate);
    if (held === row.sha256) return saved(candidate, "unchanged", null);
    if (held !== null) continue;
    await requireRoomFor(deps, input.wikiId, candidate, input.bytes.length);
    if (await insertAttachment(deps.db, { ...row, name: candidate })) {
      return saved(candidate, n === 1 ? "created" : "renamed", null);
    }
    // Taken meanwhile: by the same bytes (the same upload twice at once), or by others.
    const sha = await selectAttachmentSha(deps.db, input.wikiId, candidate);
    if (sha === row.sha256) return saved(candidate, "unchanged", null);
  }
  throw new AppError("file_exists", `The wiki has too many files named like "${name}"`);
}

/**
 * Deletes a file; its bytes are kept as an earlier version. Returns false when there is none.
 */
export async function deleteAttachment(
  deps: Pick<Deps, "db">,
  wikiId: string,
  name: string,
  accountId: string | null,
): Promise<boolean> {
  return await deps.db.transaction(async (tx) =>
    (await retireAttachment(tx, wikiId, name, accountId)) !== null
  );
}

/** The name a file is stored under and its type, or the reason it is refused. */
function checkUpload(fileName: string, bytes: Uint8Array): { name: string; type: string } {
  const name = attachmentName(fileName);
  if (!name) throw new AppError("bad_request", `The file name "${fileName}" cannot be used`);
  if (bytes.length === 0) throw new AppError("bad_request", `The file "${name}" is empty`);
  if (bytes.length > MAX_ATTACHMENT_BYTES) {
    throw new AppError("payload_too_large", `The file "${name}" is over 5 MB`);
  }
  const type = TYPES.find((t) => t.magic(bytes));
  const ext = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
  if (!type || !type.ext.includes(ext)) {
    throw new AppError(
      "unsupported_media_type",
      `The file "${name}" is not a PNG, JPEG, GIF or WebP image or a PDF (SVG is not accepted)`,
    );
  }
  return { name, type: type.type };
}

/** `image.png` as `image-2.png`, the stem cut so the name stays within 128 characters. */
function suffixedName(name: string, n: number): string {
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : "";
  const suffix = `-${n}`;
  return `${stem.slice(0, 128 - ext.length - suffix.length)}${suffix}${ext}`;
}

/** What a wiki's files take against its quota (`SPACE_FILES_MAX`, `SPACE_FILES_MB`). */
export async function attachmentUsage(
  deps: Pick<Deps, "db" | "config">,
  wikiId: string,
): Promise<
  { files: number; bytes: number; versionBytes: number; maxFiles: number; maxBytes: number }
> {
  const used = await selectAttachmentUsage(deps.db, wikiId);
  return { ...used, maxFiles: deps.config.files.maxFiles, maxBytes: deps.config.files.maxBytes };
}

/**
 * Refuses a file that would take the wiki past its quota of files or bytes (issue 26.1): a
 * space's files are what its export and its storage hold, so both are bounded per space. The
 * bytes count the files' earlier versions too: a replace or a delete keeps the old bytes, so
 * without them a loop of replaces stored without bound. An admin frees their room by deleting
 * versions for good (`DELETE …/files/{name}?version=N`).
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
    const versions = usage.versionBytes > 0
      ? ` (${
        megabytes(usage.versionBytes)
      } of it earlier versions of files, which an admin may delete for good)`
      : "";
    throw new AppError(
      "payload_too_large",
      `The file "${name}" (${megabytes(size)}) would take the wiki "${wikiId}" past its quota: ${
        megabytes(usage.bytes)
      } of ${megabytes(usage.maxBytes)} used${versions}`,
    );
  }
}

import { isAttachmentName, MAX_ATTACHMENT_BYTES } from "../attachments/attachments.ts";
import type { SourceFile } from "./read_attachments.ts";
import { type SourcePage, toPage } from "./read_sources.ts";
import { inflateZip, ZIP_LIMITS, zipEntries, type ZipLimits } from "./read_zip.ts";

/** Most files (images, PDFs) one archive may bring besides its pages. */
export const MAX_ARCHIVE_FILES = 500;

/** An entry of an archive that is neither imported as a page nor as a file, and why. */
export type SkippedEntry = { name: string; reason: string };

/** What an archive holds for an import: its pages, its files, and what is left out. */
export type Archive = { pages: SourcePage[]; files: SourceFile[]; skipped: SkippedEntry[] };

const MARKDOWN_FILE = /\.(md|markdown)$/i;

/**
 * Reads a zip for an import (the web form, REST and `deno task import` alike): its markdown
 * entries as pages, its images and PDFs as files, and every other entry as skipped with the
 * reason, so nothing is dropped without a word. A single top folder holding everything (an
 * export's `<id>/`) is dropped from the paths. Entries are inflated within `limits`
 * (`inflateZip`, pages and files counted together); a file over the attachment limit is skipped
 * by its declared size, before it is inflated.
 */
export function readArchive(bytes: Uint8Array, limits: ZipLimits = ZIP_LIMITS): Archive {
  const skipped: SkippedEntry[] = [];
  const wanted = new Set<string>();
  let files = 0;
  for (const entry of zipEntries(bytes)) {
    const { name } = entry;
    if (name.startsWith("__MACOSX/") || name.split("/").pop()!.startsWith(".")) continue;
    if (MARKDOWN_FILE.test(name)) wanted.add(name);
    else if (!isAttachmentName(name)) {
      skipped.push({ name, reason: "is not markdown, an image (PNG, JPEG, GIF, WebP) or a PDF" });
    } else if (entry.size > MAX_ATTACHMENT_BYTES) {
      skipped.push({ name, reason: "is over 5 MB, the limit of one file" });
    } else if (files >= MAX_ARCHIVE_FILES) {
      skipped.push({ name, reason: `is past the ${MAX_ARCHIVE_FILES} files one import takes` });
    } else {
      files++;
      wanted.add(name);
    }
  }
  const inflated = inflateZip(bytes, (name) => wanted.has(name), {
    ...limits,
    entries: limits.entries + MAX_ARCHIVE_FILES,
  });
  const names = [...inflated.keys()].sort();
  const tops = new Set(names.map((n) => n.includes("/") ? n.slice(0, n.indexOf("/")) : ""));
  const strip = tops.size === 1 && !tops.has("") ? [...tops][0]!.length + 1 : 0;
  const archive: Archive = { pages: [], files: [], skipped };
  for (const name of names) {
    const bytes = inflated.get(name)!;
    if (MARKDOWN_FILE.test(name)) archive.pages.push(toPage(name, name.slice(strip), bytes));
    else archive.files.push({ path: name.slice(strip), bytes });
  }
  return archive;
}

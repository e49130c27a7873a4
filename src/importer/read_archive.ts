import { isAttachmentName, MAX_ATTACHMENT_BYTES } from "../attachments/attachments.ts";
import { isDocsFile } from "../navigation/docs_layout.ts";
import type { NavDoc } from "../markdown/nav_doc.ts";
import type { SourceFile } from "./read_attachments.ts";
import { readDocsSet, type SourcePage } from "./read_sources.ts";
import { inflateZip, ZIP_LIMITS, zipEntries, type ZipLimits } from "./read_zip.ts";

/** Most files (images, PDFs) one archive may bring besides its pages. */
export const MAX_ARCHIVE_FILES = 500;

/** An entry of an archive that is neither imported as a page nor as a file, and why. */
export type SkippedEntry = { name: string; reason: string };

/**
 * What an archive holds for an import: its pages, its files, what is left out, and the
 * navigation its nav files or front matter give (null: none, the space keeps its own).
 */
export type Archive = {
  pages: SourcePage[];
  files: SourceFile[];
  skipped: SkippedEntry[];
  nav: NavDoc | null;
};

/**
 * Reads a zip for an import (the web form, REST and `deno task import` alike): its docs
 * (markdown, `.mdx` and the nav files of GitBook, MkDocs, Docusaurus or Mintlify) as pages at
 * the paths its layout gives them, with its navigation (`readDocsSet`), its images and PDFs
 * as files, and every other entry as skipped with the reason, so nothing is dropped without a
 * word. A single top folder holding everything (an
 * export's `<id>/`) is dropped from the paths. Entries are inflated within `limits`
 * (`inflateZip`, pages and files counted together); a file over the attachment limit is skipped
 * by its declared size, before it is inflated.
 */
export async function readArchive(
  bytes: Uint8Array,
  limits: ZipLimits = ZIP_LIMITS,
): Promise<Archive> {
  const skipped: SkippedEntry[] = [];
  const wanted = new Set<string>();
  let fileCount = 0;
  for (const entry of zipEntries(bytes)) {
    const { name } = entry;
    if (name.startsWith("__MACOSX/")) continue;
    // Hidden files are left out, but for the docs formats' own (`.gitbook.yaml`).
    if (name.split("/").pop()!.startsWith(".") && !isDocsFile(name)) continue;
    if (isDocsFile(name)) wanted.add(name);
    else if (!isAttachmentName(name)) {
      skipped.push({ name, reason: "is not markdown, an image (PNG, JPEG, GIF, WebP) or a PDF" });
    } else if (entry.size > MAX_ATTACHMENT_BYTES) {
      skipped.push({ name, reason: "is over 5 MB, the limit of one file" });
    } else if (fileCount >= MAX_ARCHIVE_FILES) {
      skipped.push({ name, reason: `is past the ${MAX_ARCHIVE_FILES} files one import takes` });
    } else {
      fileCount++;
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
  const docs = new Map<string, Uint8Array>();
  const files: SourceFile[] = [];
  for (const name of names) {
    const bytes = inflated.get(name)!;
    if (isDocsFile(name)) docs.set(name.slice(strip), bytes);
    else files.push({ path: name.slice(strip), bytes });
  }
  const set = await readDocsSet({
    names: [...docs.keys()],
    read: (name) => Promise.resolve(docs.get(name) ?? null),
  });
  // Pages are reported by their names in the archive, as the person who made it knows them.
  const top = strip ? names[0]!.slice(0, strip) : "";
  const pages = set.pages.map((page) => ({ ...page, name: `${top}${page.name}` }));
  return { pages, files, skipped, nav: set.nav };
}

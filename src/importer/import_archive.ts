import { saveAttachment } from "../attachments/attachments.ts";
import type { Deps, WriteDeps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { type ImportOptions, importPages, type ImportSummary } from "./import_pages.ts";
import type { Archive, SkippedEntry } from "./read_archive.ts";
import { pointAtAttachments } from "./read_attachments.ts";

/** What became of one file (image or PDF) of an import. */
export type ImportedFile = {
  /** Its path in the archive (or upload). */
  name: string;
  /** The name it is stored under in the wiki, or null when it failed. */
  file: string | null;
  status: "created" | "renamed" | "unchanged" | "failed";
  reason: string | null;
};

/** An import's outcome: the pages' summary, each file, and the entries left out. */
export type ArchiveReport = ImportSummary & { files: ImportedFile[]; skipped: SkippedEntry[] };

/**
 * The one way pages and files are imported (the web form, REST and `deno task import`): the
 * files are stored first (named by their path, `images/a.png` → `images-a.png`; a name that
 * holds other bytes is kept and the new file suffixed, never overwritten), then the pages' links
 * to them are pointed at where the wiki serves them, then the pages are written (`importPages`).
 */
export async function importArchive(
  deps: WriteDeps & Pick<Deps, "config">,
  wikiId: string,
  archive: Archive,
  options: ImportOptions = {},
): Promise<ArchiveReport> {
  const hrefs = new Map<string, string>();
  /** Where each stored file sat in the source, for the export to put it back there. */
  const assetPaths: Record<string, string> = {};
  const files: ImportedFile[] = [];
  for (const file of archive.files) {
    try {
      const saved = await saveAttachment(deps, {
        wikiId,
        fileName: file.path.replace(/\//g, "-"),
        bytes: file.bytes,
        accountId: options.author ?? null,
      });
      hrefs.set(file.path, saved.href);
      if (saved.name !== file.path) assetPaths[saved.name] = file.path;
      const status = saved.status === "replaced" ? "created" : saved.status;
      files.push({ name: file.name ?? file.path, file: saved.name, status, reason: null });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      files.push({
        name: file.name ?? file.path,
        file: null,
        status: "failed",
        reason: error.detail,
      });
    }
  }
  const pages = hrefs.size === 0
    ? archive.pages
    : archive.pages.map((page) =>
      "markdown" in page
        ? { ...page, markdown: pointAtAttachments(page.markdown, page.path, hrefs) }
        : page
    );
  const summary = await importPages(deps, wikiId, pages, {
    nav: archive.nav,
    assetPaths,
    ...options,
  });
  return { ...summary, files, skipped: archive.skipped };
}

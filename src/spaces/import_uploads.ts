import type { WriteDeps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { importPages, type ImportSummary } from "../importer/import_pages.ts";
import { readZip, type SourcePage, toPage } from "../importer/read_sources.ts";

/** Largest upload the import form takes, in bytes (the REST import's limit). */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/** Most pages one upload may hold (the REST import's limit). */
const MAX_PAGES = 5_000;

/** What happened to one uploaded file (or one file of an uploaded zip). */
export type ImportRow = {
  name: string;
  path: string | null;
  status: "created" | "updated" | "unchanged" | "failed";
  reason: string | null;
};

/** An upload's outcome: one row per file, and the totals. */
export type ImportReport = { rows: ImportRow[]; summary: ImportSummary };

/**
 * Imports uploaded `.md` files and `.zip` archives of them into a wiki, each page in its own
 * transaction (`importPages`): a file that cannot be read or written is reported with the
 * reason and the others go in.
 */
export async function importUploads(
  deps: WriteDeps,
  wikiId: string,
  files: File[],
  author: string,
): Promise<ImportReport> {
  const pages = await readUploads(files);
  if (pages.length > MAX_PAGES) {
    throw new AppError("payload_too_large", `At most ${MAX_PAGES} pages per import`);
  }
  const rows: ImportRow[] = [];
  let seen = { added: 0, updated: 0, unchanged: 0 };
  const summary = await importPages(deps, wikiId, pages, {
    author,
    source: "web",
    // importPages reports after each page; the counter that moved says what became of it.
    onProgress: (done, _total, now) => {
      const page = pages[done - 1]!;
      const status = now.added > seen.added
        ? "created"
        : now.updated > seen.updated
        ? "updated"
        : now.unchanged > seen.unchanged
        ? "unchanged"
        : "failed";
      rows.push({
        name: page.name,
        path: "path" in page ? page.path : null,
        status,
        reason: status === "failed" ? now.failed[now.failed.length - 1]?.error ?? null : null,
      });
      seen = { added: now.added, updated: now.updated, unchanged: now.unchanged };
    },
  });
  return { rows, summary };
}

/** The pages of the uploaded files: markdown files as they are, zips opened. */
async function readUploads(files: File[]): Promise<SourcePage[]> {
  const pages: SourcePage[] = [];
  for (const file of files) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (/\.zip$/i.test(file.name)) {
      let entries: SourcePage[];
      try {
        entries = readZip(bytes);
      } catch (error) {
        pages.push({ name: file.name, error: (error as Error).message });
        continue;
      }
      if (entries.length === 0) {
        pages.push({ name: file.name, error: "holds no .md or .markdown files" });
      }
      for (const entry of entries) pages.push({ ...entry, name: `${file.name}: ${entry.name}` });
    } else if (/\.(md|markdown)$/i.test(file.name)) {
      pages.push(toPage(file.name, file.name, bytes));
    } else {
      pages.push({ name: file.name, error: "is not a .md, .markdown or .zip file" });
    }
  }
  return pages;
}

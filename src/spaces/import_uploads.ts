import type { Deps, WriteDeps } from "../deps.ts";
import { AppError } from "../errors.ts";
import type { ImportSummary } from "../importer/import_pages.ts";
import { importArchive } from "../importer/import_archive.ts";
import { type Archive, readArchive } from "../importer/read_archive.ts";
import { toPage } from "../importer/read_sources.ts";

/** Largest upload the import form takes, in bytes (the REST import's limit). */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/** Most pages one upload may hold (the REST import's limit). */
const MAX_PAGES = 5_000;

/** What happened to one uploaded file (or one file of an uploaded zip). */
export type ImportRow = {
  name: string;
  path: string | null;
  status: "created" | "updated" | "unchanged" | "failed" | "skipped";
  reason: string | null;
};

/** An upload's outcome: one row per file, and the totals. */
export type ImportReport = { rows: ImportRow[]; summary: ImportSummary };

/**
 * Imports uploaded `.md` files and `.zip` archives of them (with their images and PDFs) into a
 * wiki through `importArchive`, the import every surface shares: a file that cannot be read or
 * written is reported with the reason and the others go in.
 */
export async function importUploads(
  deps: WriteDeps & Pick<Deps, "config">,
  wikiId: string,
  files: File[],
  author: string,
): Promise<ImportReport> {
  const archive = await readUploads(files);
  if (archive.pages.length > MAX_PAGES) {
    throw new AppError("payload_too_large", `At most ${MAX_PAGES} pages per import`);
  }
  const rows: ImportRow[] = [];
  let seen = { added: 0, updated: 0, unchanged: 0 };
  const report = await importArchive(deps, wikiId, archive, {
    author,
    source: "web",
    // importPages reports after each page; the counter that moved says what became of it.
    onProgress: (done, _total, now) => {
      const page = archive.pages[done - 1]!;
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
  const { files: stored, skipped, ...summary } = report;
  const fileRows: ImportRow[] = stored.map((f) => ({
    name: f.name,
    path: null,
    status: f.status === "failed" ? "failed" : f.status === "unchanged" ? "unchanged" : "created",
    reason: f.status === "renamed" ? `kept beside another file as ${f.file}` : f.reason,
  }));
  const skippedRows: ImportRow[] = skipped.map((s) => ({
    name: s.name,
    path: null,
    status: "skipped",
    reason: s.reason,
  }));
  return { rows: [...fileRows, ...rows, ...skippedRows], summary };
}

/** The uploaded files as one archive: markdown files as they are, zips opened. */
async function readUploads(files: File[]): Promise<Archive> {
  const archive: Archive = { pages: [], files: [], skipped: [], nav: null };
  for (const file of files) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (/\.zip$/i.test(file.name)) {
      let opened: Archive;
      try {
        opened = await readArchive(bytes);
      } catch (error) {
        archive.pages.push({ name: file.name, error: (error as Error).message });
        continue;
      }
      if (opened.pages.length === 0) {
        archive.pages.push({ name: file.name, error: "holds no .md or .markdown files" });
      }
      const named = <T extends { name: string }>(x: T) => ({
        ...x,
        name: `${file.name}: ${x.name}`,
      });
      archive.pages.push(...opened.pages.map(named));
      archive.files.push(...opened.files.map((f) => ({ ...f, name: `${file.name}: ${f.path}` })));
      archive.skipped.push(...opened.skipped.map(named));
      archive.nav = opened.nav ?? archive.nav;
    } else if (/\.(md|markdown)$/i.test(file.name)) {
      archive.pages.push(toPage(file.name, file.name, bytes));
    } else {
      archive.pages.push({ name: file.name, error: "is not a .md, .markdown or .zip file" });
    }
  }
  return archive;
}

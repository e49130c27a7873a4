import type { Deps, WriteDeps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { importPages, type ImportSummary } from "../importer/import_pages.ts";
import { saveAttachment } from "../attachments/attachments.ts";
import {
  pointAtAttachments,
  readZipAttachments,
  type SourceFile,
} from "../importer/read_attachments.ts";
import { readDocsZip, type SourcePage, toPage } from "../importer/read_sources.ts";
import type { NavDoc } from "../navigation/nav_doc.ts";

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
  deps: WriteDeps & Pick<Deps, "config">,
  wikiId: string,
  files: File[],
  author: string,
): Promise<ImportReport> {
  const { pages, attachments, nav } = await readUploads(files);
  const saved = await saveImportedFiles(deps, wikiId, attachments, author);
  for (const page of pages) {
    if ("markdown" in page) {
      page.markdown = pointAtAttachments(page.markdown, page.path, saved.hrefs);
    }
  }
  if (pages.length > MAX_PAGES) {
    throw new AppError("payload_too_large", `At most ${MAX_PAGES} pages per import`);
  }
  const rows: ImportRow[] = [...saved.rows];
  let seen = { added: 0, updated: 0, unchanged: 0 };
  const summary = await importPages(deps, wikiId, pages, {
    author,
    source: "web",
    nav,
    assetPaths: saved.paths,
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

/**
 * Stores the images and PDFs of uploaded zips as the wiki's files, named by their path in the
 * archive (`images/a.png` → `images-a.png`); returns where each path is served, and a row each.
 */
async function saveImportedFiles(
  deps: WriteDeps & Pick<Deps, "config">,
  wikiId: string,
  files: (SourceFile & { upload: string })[],
  author: string,
): Promise<{ hrefs: Map<string, string>; rows: ImportRow[]; paths: Record<string, string> }> {
  const hrefs = new Map<string, string>();
  const paths: Record<string, string> = {};
  const rows: ImportRow[] = [];
  for (const file of files) {
    const name = `${file.upload}: ${file.path}`;
    try {
      const saved = await saveAttachment(deps, {
        wikiId,
        fileName: file.path.replace(/\//g, "-"),
        bytes: file.bytes,
        accountId: author,
      });
      hrefs.set(file.path, saved.href);
      if (saved.name !== file.path) paths[saved.name] = file.path;
      rows.push({ name, path: null, status: "created", reason: null });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      rows.push({ name, path: null, status: "failed", reason: error.detail });
    }
  }
  return { hrefs, rows, paths };
}

/** The pages of the uploaded files (markdown files as they are, zips opened) and zips' files. */
async function readUploads(
  files: File[],
): Promise<
  { pages: SourcePage[]; attachments: (SourceFile & { upload: string })[]; nav: NavDoc | null }
> {
  const pages: SourcePage[] = [];
  let nav: NavDoc | null = null;
  const attachments: (SourceFile & { upload: string })[] = [];
  for (const file of files) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (/\.zip$/i.test(file.name)) {
      let entries: SourcePage[];
      try {
        const set = await readDocsZip(bytes);
        entries = set.pages;
        nav = set.nav ?? nav;
        for (const found of readZipAttachments(bytes)) {
          attachments.push({ ...found, upload: file.name });
        }
      } catch (error) {
        pages.push({ name: file.name, error: (error as Error).message });
        continue;
      }
      if (entries.length === 0) {
        pages.push({ name: file.name, error: "holds no .md or .markdown files" });
      }
      for (const entry of entries) pages.push({ ...entry, name: `${file.name}: ${entry.name}` });
    } else if (/\.(md|markdown|mdx)$/i.test(file.name)) {
      pages.push(toPage(file.name, file.name, bytes));
    } else {
      pages.push({ name: file.name, error: "is not a .md, .markdown or .zip file" });
    }
  }
  return { pages, attachments, nav };
}

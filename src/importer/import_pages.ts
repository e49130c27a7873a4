import type { WriteDeps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { pathKey } from "../markdown/paths.ts";
import { deletePage } from "../pages/rename_page.ts";
import { parseOrThrow, requirePath, writePage } from "../pages/write_page.ts";
import { type BatchPage, writePages } from "../pages/write_pages.ts";
import type { SourcePage } from "./read_sources.ts";
import type { NavDoc } from "../markdown/nav_doc.ts";
import { saveImportedNav } from "../navigation/space_nav_doc.ts";
import { selectPageHashes } from "../pages/mod.ts";

/** What an import did. */
export type ImportSummary = {
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  failed: { name: string; error: string }[];
};

/** Import options: `prune` deletes pages the source no longer has. */
export type ImportOptions = {
  prune?: boolean;
  author?: string | null;
  source?: string;
  /** The Git commit the pages come from (a sync): recorded on each revision written. */
  commit?: { id: string; author: string | null };
  /** Called after each page, in source order (pages of a batch once the batch is stored). */
  onProgress?: (done: number, total: number, summary: ImportSummary) => void;
  /** Most pages written per transaction (default `BATCH_PAGES`); 1 writes page by page. */
  batchPages?: number;
  /** The source's navigation (`readSourceSet`), stored once the pages are in; null keeps the space's. */
  nav?: NavDoc | null;
  /** Files stored flat (`img-team.png`) by their path in the source (`img/team.png`), for the export. */
  assetPaths?: Record<string, string>;
};

/** Most pages per transaction: enough to spread each statement's cost, small enough to retry. */
export const BATCH_PAGES = 100;
/** Most markdown characters per transaction, so a batch of long pages stays short. */
export const BATCH_CHARS = 2_000_000;

type Outcome = "added" | "updated" | "unchanged" | { error: string };

/**
 * Writes the source pages in batches, each batch in one transaction (`writePages`: multi-row
 * statements, the wiki's index statistics updated once per batch, one embedder call), so an
 * interrupted import leaves every page fully old or fully new. Pages whose content hash is
 * already stored are skipped before any write; a page that cannot be read or parsed is
 * reported by name and skipped. When a batch fails, its pages are written again one by one,
 * so a bad page is reported (or a database error stops the import) without losing the others.
 */
export async function importPages(
  deps: WriteDeps,
  wikiId: string,
  pages: SourcePage[],
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const summary: ImportSummary = { added: 0, updated: 0, unchanged: 0, deleted: 0, failed: [] };
  const stored = await selectPageHashes(deps.db, wikiId);
  const seen = new Map<string, string>();
  const by = {
    author: options.author ?? null,
    source: options.source ?? "import",
    commit: options.commit,
  };
  const batchPages = Math.max(1, options.batchPages ?? BATCH_PAGES);
  let done = 0;
  for (let start = 0; start < pages.length;) {
    const outcomes: Outcome[] = [];
    const batch: { at: number; page: BatchPage }[] = [];
    let chars = 0;
    let end = start;
    for (; end < pages.length && batch.length < batchPages && chars < BATCH_CHARS; end++) {
      const page = pages[end]!;
      try {
        if ("error" in page) throw new Error(page.error);
        const path = requirePath(page.path);
        const key = pathKey(path);
        const first = seen.get(key);
        if (first !== undefined) throw new Error(`has the same page path as ${first}`);
        seen.set(key, page.name);
        const parsed = await parseOrThrow(path, page.markdown, page.title);
        if (stored.get(key) === parsed.contentHash) outcomes.push("unchanged");
        else {
          outcomes.push("unchanged"); // replaced by the write's outcome below
          batch.push({ at: end - start, page: { path, key, markdown: page.markdown, parsed } });
          chars += page.markdown.length;
        }
      } catch (error) {
        outcomes.push(failure(error));
      }
    }
    for (const [at, outcome] of await writeBatch(deps, wikiId, pages, start, batch, by)) {
      outcomes[at] = outcome;
    }
    for (const [j, outcome] of outcomes.entries()) {
      if (typeof outcome === "string") summary[outcome]++;
      else summary.failed.push({ name: pages[start + j]!.name, error: outcome.error });
      options.onProgress?.(++done, pages.length, summary);
    }
    start = end;
  }
  if (options.prune) {
    for (const [key] of stored) {
      if (seen.has(key)) continue;
      await deletePage(deps, { wikiId, path: key }, by);
      summary.deleted++;
    }
  }
  if (options.nav || options.assetPaths) {
    await saveImportedNav(deps.db, wikiId, options.nav ?? null, options.assetPaths ?? {});
  }
  return summary;
}

/**
 * Writes a batch in one transaction; if that fails, page by page with `writePage`, where a
 * page's own error is its outcome and a database error stops the import.
 */
async function writeBatch(
  deps: WriteDeps,
  wikiId: string,
  pages: SourcePage[],
  start: number,
  batch: { at: number; page: BatchPage }[],
  by: { author: string | null; source: string },
): Promise<[number, Outcome][]> {
  if (batch.length === 0) return [];
  if (batch.length > 1) {
    try {
      const written = await writePages(deps, wikiId, batch.map((b) => b.page), by);
      return written.map((w, i) => [batch[i]!.at, statusOf(w.status)]);
    } catch {
      // Retried page by page below: the page at fault is reported, the others are written.
    }
  }
  const outcomes: [number, Outcome][] = [];
  for (const { at, page } of batch) {
    try {
      const source = pages[start + at] as { title?: string };
      const written = await writePage(
        deps,
        { wikiId, path: page.path, markdown: page.markdown, title: source.title },
        by,
      );
      outcomes.push([at, statusOf(written.status)]);
    } catch (error) {
      outcomes.push([at, failure(error)]);
    }
  }
  return outcomes;
}

function statusOf(status: "created" | "updated" | "unchanged"): Outcome {
  return status === "created" ? "added" : status;
}

/** A page's own failure becomes its outcome; errors from the database stop the import. */
function failure(error: unknown): Outcome {
  if (error instanceof AppError || !(error instanceof Error) || !isDatabaseError(error)) {
    return { error: reasonOf(error) };
  }
  throw error;
}

function reasonOf(error: unknown): string {
  if (error instanceof AppError) return error.detail;
  return error instanceof Error ? error.message : String(error);
}

/** Errors from the database stop the import: the next page would fail the same way. */
function isDatabaseError(error: Error): boolean {
  return "code" in error || /connect|terminat|closed/i.test(error.message);
}

import type { WriteDeps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { parsePage } from "../markdown/parse_page.ts";
import { pathKey } from "../markdown/paths.ts";
import { deletePage } from "../pages/rename_page.ts";
import { writePage } from "../pages/write_page.ts";
import type { SourcePage } from "./read_sources.ts";
import { pageHashes } from "../pages/list_pages.ts";

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
  onProgress?: (done: number, total: number, summary: ImportSummary) => void;
};

/**
 * Writes each source page in its own transaction, so an interrupted import leaves every page
 * fully old or fully new. Pages whose content hash is already stored are skipped; a page
 * that cannot be read or parsed is reported by name and skipped.
 */
export async function importPages(
  deps: WriteDeps,
  wikiId: string,
  pages: SourcePage[],
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const summary: ImportSummary = { added: 0, updated: 0, unchanged: 0, deleted: 0, failed: [] };
  const stored = await pageHashes(deps.db, wikiId);
  const seen = new Map<string, string>();
  const by = {
    author: options.author ?? null,
    source: options.source ?? "import",
    commit: options.commit,
  };
  let done = 0;
  for (const page of pages) {
    try {
      if ("error" in page) throw new Error(page.error);
      const key = pathKey(page.path);
      const first = seen.get(key);
      if (first !== undefined) throw new Error(`has the same page path as ${first}`);
      seen.set(key, page.name);
      const hash = (await parsePage(page.path, page.markdown, page.title)).contentHash;
      if (stored.get(key) === hash) {
        summary.unchanged++;
      } else {
        const outcome = await writePage(deps, { wikiId, ...page }, by);
        if (outcome.status === "created") summary.added++;
        else if (outcome.status === "updated") summary.updated++;
        else summary.unchanged++;
      }
    } catch (error) {
      if (error instanceof AppError || !(error instanceof Error) || !isDatabaseError(error)) {
        summary.failed.push({ name: page.name, error: reasonOf(error) });
      } else throw error;
    }
    options.onProgress?.(++done, pages.length, summary);
  }
  if (options.prune) {
    for (const [key] of stored) {
      if (seen.has(key)) continue;
      await deletePage(deps, { wikiId, path: key }, by);
      summary.deleted++;
    }
  }
  return summary;
}

function reasonOf(error: unknown): string {
  if (error instanceof AppError) return error.detail;
  return error instanceof Error ? error.message : String(error);
}

/** Errors from the database stop the import: the next page would fail the same way. */
function isDatabaseError(error: Error): boolean {
  return "code" in error || /connect|terminat|closed/i.test(error.message);
}

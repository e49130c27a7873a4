import type { Deps } from "../../src/deps.ts";
import { importPages } from "../../src/importer/import_pages.ts";
import { round } from "../../src/search/metrics.ts";
import { ensureVectorIndex } from "../../src/search/vector_index.ts";
import { createWiki } from "../../src/wikis/wikis.ts";
import { asSources, type EvalPage } from "./corpus.ts";

/** What one import did, and how fast. */
export type ImportFigures = {
  set: string;
  pages: number;
  chunks: number;
  seconds: number;
  pages_per_s: number;
};

/**
 * Imports a set's pages into a new public wiki named after it with `importPages` (one
 * transaction per page, the embedder's HNSW index in place, as the server keeps it), timed.
 */
export async function measureImport(
  deps: Deps,
  set: string,
  pages: EvalPage[],
): Promise<ImportFigures> {
  await ensureVectorIndex(deps.db, deps.embedder);
  await createWiki(deps.db, { id: set, visibility: "public" });
  const t = performance.now();
  const summary = await importPages(deps, set, asSources(pages));
  const seconds = (performance.now() - t) / 1000;
  if (summary.failed.length > 0) throw new Error(`Import failed: ${summary.failed[0]!.error}`);
  const [row] = await deps.db<{ chunks: number }>`
    SELECT count(*)::int AS chunks FROM chunks WHERE wiki_id = ${set}`;
  return {
    set,
    pages: summary.added,
    chunks: row!.chunks,
    seconds: round(seconds),
    pages_per_s: round(summary.added / seconds),
  };
}

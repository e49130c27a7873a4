import type { Db } from "../db/db.ts";
import type { PageRow } from "../db/page_row.ts";
import type { WriteDeps } from "../deps.ts";
import type { ParsedPage } from "../markdown/parse_page.ts";
import { nameKey } from "../markdown/paths.ts";
import { prepareChunksOf } from "../search/prepare_chunks.ts";
import { indexChunksOfPages } from "../search/chunk_index.ts";
import {
  insertPages,
  insertRevisions,
  lockPages,
  replaceLinksOfPages,
  resolveLinksOfPages,
  updatePages,
} from "./store.ts";
import { byOf, lockWiki, requireNewPath, type WriteBy, type WriteOutcome } from "./write_page.ts";
import { touchWiki } from "../wikis/mod.ts";

/** A page ready for a batch write: its cleaned path and key, already parsed (`parseOrThrow`). */
export type BatchPage = { path: string; key: string; markdown: string; parsed: ParsedPage };

/**
 * The batch cannot be written as one (a page the batch path does not handle: one stored under
 * another spelling of its path, or created by another writer meanwhile). The caller writes its
 * pages one by one with `writePage`, which handles every case.
 */
export class BatchFallback extends Error {
  override name = "BatchFallback";
}

/**
 * Writes many pages of one wiki in one transaction, as `writePage` would write each: pages,
 * history, links (resolved set-based for the batch), chunks and the lexical index (document
 * frequencies and totals updated once per batch), vectors from one embedder call. All or
 * nothing: after a crash every page of the batch is old or new. Outcomes are in input order.
 * Throws `BatchFallback`, an `AppError` of one page, or a database error; then nothing of the
 * batch is stored and the caller retries page by page to report the bad one.
 */
export async function writePages(
  deps: WriteDeps,
  wikiId: string,
  pages: BatchPage[],
  by: WriteBy,
): Promise<WriteOutcome[]> {
  const prepared = await prepareChunksOf(deps, pages.map((p) => p.parsed));
  // One embedder call for the batch: every page has vectors from it, or none has.
  const embedder = prepared[0]?.embedder ?? null;
  return await deps.db.transaction(async (tx) => {
    await lockWiki(tx, wikiId, by);
    const existing = new Map(
      (await lockPages(tx, wikiId, pages.map((p) => p.key))).map((r) => [r.path_key, r]),
    );
    const { outcomes, fresh, changed } = sortBatch(pages, existing);
    const { created, byKey } = await storePages(tx, wikiId, pages, existing, fresh, changed);
    for (const i of fresh) outcomes[i] = { status: "created", page: byKey.get(pages[i]!.key)! };
    for (const i of changed) outcomes[i] = { status: "updated", page: byKey.get(pages[i]!.key)! };
    const written = [...fresh, ...changed];
    if (written.length > 0) {
      const rowOf = (i: number) => byKey.get(pages[i]!.key)!;
      await replaceLinksOfPages(
        tx,
        wikiId,
        written.map((i) => ({ pageId: rowOf(i).id, links: pages[i]!.parsed.links })),
      );
      await resolveLinksOfPages(
        tx,
        wikiId,
        written.map((i) => rowOf(i).id),
        created.flatMap((r) => [r.path_key, r.name_key]),
      );
      await indexChunksOfPages(
        tx,
        wikiId,
        written.map((i) => ({ pageId: rowOf(i).id, chunks: prepared[i]!.chunks })),
        embedder,
      );
      await touchWiki(tx, wikiId);
      await insertRevisions(
        tx,
        [
          ...fresh.map((i) => ({ page: rowOf(i), action: "create" as const })),
          ...changed.map((i) => ({ page: rowOf(i), action: "update" as const })),
        ],
        byOf(by),
      );
    }
    return outcomes.map((o) => o!);
  });
}

/**
 * Sorts a batch against the stored pages: new ones (`fresh`), changed ones, and the unchanged,
 * whose outcome is known already (indices into `pages`).
 */
function sortBatch(pages: BatchPage[], existing: Map<string, PageRow>) {
  const outcomes: (WriteOutcome | null)[] = pages.map(() => null);
  const fresh: number[] = [];
  const changed: number[] = [];
  pages.forEach((page, i) => {
    const row = existing.get(page.key);
    if (!row) {
      requireNewPath(page.path);
      fresh.push(i);
    } else if (row.path !== page.path) {
      // The page keeps its stored spelling, which changes its parse: `writePage` does that.
      throw new BatchFallback(`"${page.path}" is stored as "${row.path}"`);
    } else if (row.content_hash === page.parsed.contentHash) {
      outcomes[i] = { status: "unchanged", page: row };
    } else changed.push(i);
  });
  return { outcomes, fresh, changed };
}

/** Inserts the new pages and updates the changed ones; their rows by path key. */
async function storePages(
  tx: Db,
  wikiId: string,
  pages: BatchPage[],
  existing: Map<string, PageRow>,
  fresh: number[],
  changed: number[],
) {
  const created = fresh.length === 0 ? [] : await insertPages(
    tx,
    wikiId,
    fresh.map((i) => {
      const p = pages[i]!;
      return {
        path: p.path,
        path_key: p.key,
        name_key: nameKey(p.path),
        title: p.parsed.title,
        markdown: p.markdown,
        content_hash: p.parsed.contentHash,
      };
    }),
  );
  if (created.length !== fresh.length) throw new BatchFallback("a page was created meanwhile");
  const updated = changed.length === 0 ? [] : await updatePages(
    tx,
    changed.map((i) => {
      const p = pages[i]!;
      return {
        id: existing.get(p.key)!.id,
        title: p.parsed.title,
        markdown: p.markdown,
        content_hash: p.parsed.contentHash,
      };
    }),
  );
  const byKey = new Map<string, PageRow>([...created, ...updated].map((r) => [r.path_key, r]));
  return { created, byKey };
}

import type { WriteDeps } from "../deps.ts";
import { EmbedderError } from "../lib/embedder.ts";
import { storesVectors } from "./fusion.ts";
import { parsePage } from "../markdown/parse_page.ts";
import { chunkHeadingText, prepareChunks } from "./prepare_chunks.ts";
import {
  replaceChunks,
  selectPageChunks,
  selectPageHash,
  selectPagesAfter,
  selectPagesToReindexScripts,
  selectStaleChunks,
  updateEmbeddings,
} from "./store.ts";
import { CJK } from "../text/terms.ts";
import { countStaleChunks } from "./vector_index.ts";
import { lockWikiForWrite } from "../wikis/mod.ts";

/** Chunks embedded per round trip. */
const BATCH = 128;

/**
 * Gives every chunk (of one wiki, or all) a vector from the configured embedder: after a
 * change of model, or for pages stored while the embedder was down. Chunks and the lexical
 * index are untouched; search keeps working throughout. Returns how many were embedded: none
 * for an embedder whose vectors are not stored (the offline one).
 */
export async function reindexVectors(
  deps: WriteDeps,
  wikiId: string | null,
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  const total = await countStaleChunks(deps.db, deps.embedder, wikiId ?? undefined);
  let done = 0;
  onProgress?.(0, total);
  while (done < total) {
    const batch = await selectStaleChunks(deps.db, deps.embedder.id, wikiId, BATCH);
    if (batch.length === 0) break;
    const vectors = await deps.embedder.embed(batch.map((c) => `${c.heading_text}\n\n${c.text}`));
    await updateEmbeddings(
      deps.db,
      deps.embedder.id,
      batch.map((c, i) => ({ id: c.id, embedding: vectors[i]! })),
    );
    done += batch.length;
    onProgress?.(Math.min(done, total), total);
  }
  return done;
}

/**
 * Re-indexes the chunks of pages stored before text in other scripts was indexed (CJK as
 * bigrams, Cyrillic and Greek words in the offline embedder): their terms and vectors are
 * computed again from the stored chunk text, one page per transaction under the wiki's write
 * lock. Pages in English only are not touched. Returns how many pages were re-indexed.
 */
export async function reindexOtherScripts(
  deps: WriteDeps,
  wikiId: string | null,
): Promise<number> {
  const pages = await selectPagesToReindexScripts(deps.db, wikiId, `[${CJK}]`);
  for (const page of pages) {
    await deps.db.transaction(async (tx) => {
      if (!await lockWikiForWrite(tx, page.wiki_id)) return;
      const rows = await selectPageChunks(tx, page.id);
      if (rows.length === 0) return;
      let vectors: Float32Array[] | null = null;
      if (storesVectors(deps.embedder)) {
        try {
          vectors = await deps.embedder.embed(rows.map((r) => `${r.heading_text}\n\n${r.text}`));
        } catch (error) {
          if (!(error instanceof EmbedderError)) throw error;
        }
      }
      const chunks = rows.map((r, i) => ({
        ord: r.ord,
        headingPath: r.heading_path,
        anchor: r.anchor,
        headingText: r.heading_text,
        text: r.text,
        embedding: vectors?.[i] ?? null,
      }));
      await replaceChunks(tx, page.wiki_id, page.id, chunks, vectors ? deps.embedder.id : null);
    });
  }
  return pages.length;
}

/**
 * Parses every page (of one wiki, or all) again from its stored markdown and re-indexes the
 * pages whose passages come out different. A release that changes how pages are split (a long
 * table cut between its rows, each passage under the table's header) reaches the pages stored
 * before it this way; until then they keep the passages they were stored with. A page written
 * between the read and the re-index is left as that write indexed it. Returns how many pages
 * were re-indexed; a second run re-indexes none.
 */
export async function reparsePages(
  deps: WriteDeps,
  wikiId: string | null,
  onProgress?: (done: number) => void,
): Promise<number> {
  let after = 0, done = 0, changed = 0;
  for (;;) {
    const pages = await selectPagesAfter(deps.db, wikiId, after, 100);
    if (pages.length === 0) return changed;
    for (const page of pages) {
      after = page.id;
      onProgress?.(++done);
      const parsed = await parsePage(page.path, page.markdown, page.title).catch(() => null);
      if (!parsed) continue; // front matter no write would accept now: left as stored
      const stored = await selectPageChunks(deps.db, page.id);
      const same = stored.length === parsed.chunks.length &&
        stored.every((c, i) => {
          const p = parsed.chunks[i]!;
          return c.text === p.text && c.anchor === p.anchor &&
            c.heading_path.join("\u0000") === p.headingPath.join("\u0000") &&
            c.heading_text === chunkHeadingText(parsed, p);
        });
      if (same) continue;
      const prepared = await prepareChunks(deps, parsed);
      const applied = await deps.db.transaction(async (tx) => {
        if (!await lockWikiForWrite(tx, page.wiki_id)) return false;
        if (await selectPageHash(tx, page.id) !== page.hash) return false;
        await replaceChunks(tx, page.wiki_id, page.id, prepared.chunks, prepared.embedder);
        return true;
      });
      if (applied) changed++;
    }
  }
}

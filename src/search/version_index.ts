import type { Db } from "../db/db.ts";
import { parsePage } from "../markdown/parse_page.ts";
import {
  addChunk,
  addPosting,
  type Bm25Params,
  type ChunkCandidate,
  type ChunkHit,
  emptyIndex,
  indexBytes,
  type LexicalIndex,
  topKChunks,
} from "./lexical_index.ts";
import { headingTextOf } from "./prepare_chunks.ts";
import { lexicalText } from "../text/terms.ts";
import { selectDivergedPages, selectRevisionsOf } from "../versions/mod.ts";
import { versionPageIndex } from "../versions/version_pages.ts";
import type { Version } from "../versions/versions.ts";
import { selectTextTerms } from "./store.ts";

/**
 * A version's lexical index, built over the live one (docs/decisions.md, "Versions of a
 * space"): the live postings are shared, and the version only adds
 *
 * - a mask over the live index's chunks: 1 for a chunk of a page the version pins at its live
 *   revision (1 byte a chunk), with BM25 length norms for the version's average length;
 * - an overlay: the chunks of the revisions it pins that the live pages no longer have
 *   (changed, renamed or deleted since), chunked from `page_revisions` when first searched.
 *
 * Scores use the version's own statistics (its chunk count, average length and document
 * frequencies), so a version ranks as a wiki holding exactly its pages would.
 */
type View = {
  version: Version;
  live: LexicalIndex;
  liveVersion: number;
  mask: Uint8Array;
  norms: Float64Array;
  normsFor: number;
  normsCount: number;
  liveN: number;
  liveLength: number;
  overlay: LexicalIndex;
  overlayLength: number;
  /** Pages whose live chunks the version shares. */
  shared: Set<number>;
};

/** A chunk of a pinned revision the live index no longer holds, with what search shows of it. */
type OverlayChunk = { row: ChunkCandidate; length: number; terms: Map<string, [number, number]> };

/**
 * What one process keeps for the versions of one database (ids are the database's): views by
 * version id for the index they were built over (most recent 100), chunks of pinned revisions
 * by `page:revision` (immutable: kept until 200,000 chunks), and those chunks by their
 * (negative, process-local) ids.
 */
type VersionCache = {
  views: Map<number, View>;
  overlayChunks: Map<string, OverlayChunk[]>;
  overlayChunkCount: number;
  overlayById: Map<number, OverlayChunk>;
};
const caches = new WeakMap<Db, VersionCache>();
/** Overlay chunk ids: negative, never reused in the process (never a live chunk's id). */
let nextOverlayId = -1;

function cacheOf(db: Db): VersionCache {
  let cache = caches.get(db);
  if (!cache) {
    caches.set(
      db,
      cache = {
        views: new Map(),
        overlayChunks: new Map(),
        overlayChunkCount: 0,
        overlayById: new Map(),
      },
    );
  }
  return cache;
}

/**
 * The version's view over `live` at live index version `liveVersion`: built when first
 * searched and again after a write to the wiki. The pages a version no longer shares only
 * grow (revisions never go back), so a diverged set read after the index is never too small.
 */
export async function versionView(
  db: Db,
  version: Version,
  live: LexicalIndex,
): Promise<View> {
  const { views } = cacheOf(db);
  const cached = views.get(version.id);
  if (cached && cached.live === live && cached.liveVersion === live.version) return cached;
  const liveVersion = live.version;
  const [pages, diverged] = await Promise.all([
    versionPageIndex(db, version),
    selectDivergedPages(db, version.id),
  ]);
  const gone = new Set(diverged);
  const shared = new Set<number>();
  for (const id of pages.byPage.keys()) if (!gone.has(id)) shared.add(id);
  const overlay = await overlayOf(
    db,
    diverged.map((page_id) => ({ page_id, revision: pages.byPage.get(page_id)!.revision })),
  );
  // The index may have moved on while the overlay was read: the mask is built over it as it is
  // now; the caller checks the version it scores against.
  const mask = new Uint8Array(live.size);
  let liveN = 0, liveLength = 0;
  for (let d = 0; d < live.size; d++) {
    if (live.alive[d] && shared.has(live.pageIds[d]!)) {
      mask[d] = 1;
      liveN++;
      liveLength += live.lengths[d]!;
    }
  }
  const index = emptyIndex(version.wikiId, 0, overlay.length);
  let overlayLength = 0;
  for (const c of overlay) {
    const local = addChunk(index, c.row.chunk_id, c.row.page_id, c.length);
    overlayLength += c.length;
    for (const [term, [h, b]] of c.terms) addPosting(index, term, local, h, b);
  }
  const view: View = {
    version,
    live,
    liveVersion: live.version === liveVersion ? liveVersion : -1,
    mask,
    norms: new Float64Array(live.size),
    normsFor: NaN,
    normsCount: 0,
    liveN,
    liveLength,
    overlay: index,
    overlayLength,
    shared,
  };
  views.delete(version.id);
  if (views.size >= 100) views.delete(views.keys().next().value!);
  views.set(version.id, view);
  return view;
}

/**
 * The `limit` best chunks of a version for the query's terms (all its lexemes, as
 * `selectQueryTerms` gives them), best first, ties by ascending chunk id. Synchronous: the
 * live index is scored as it was when the view was built.
 */
export function versionTopK(
  view: View,
  queryTerms: string[],
  params: Bm25Params,
  limit: number,
): ChunkHit[] {
  const n = view.liveN + view.overlay.size;
  if (n === 0) return [];
  const avgdl = (view.liveLength + view.overlayLength) / n;
  const terms: string[] = [];
  const dfs: number[] = [];
  for (const term of new Set(queryTerms)) {
    const df = countIn(view.live.terms.get(term), view.mask) +
      (view.overlay.terms.get(term)?.n ?? 0);
    if (df > 0) {
      terms.push(term);
      dfs.push(df);
    }
  }
  const stats = { n, avgdl, terms, dfs };
  const masked: LexicalIndex = {
    ...view.live,
    alive: view.mask,
    norms: view.norms,
    normsFor: view.normsFor,
    normsCount: view.normsCount,
  };
  const shared = topKChunks(masked, stats, params, limit);
  // The scratch arrays are the live index's; the norms are the view's own.
  view.live.touched = masked.touched;
  view.normsFor = masked.normsFor;
  view.normsCount = masked.normsCount;
  const own = topKChunks(view.overlay, stats, params, limit);
  return [...shared, ...own].sort((a, b) => b.score - a.score || a.chunk_id - b.chunk_id)
    .slice(0, limit);
}

function countIn(list: { docs: Int32Array; n: number } | undefined, mask: Uint8Array): number {
  if (!list) return 0;
  let df = 0;
  for (let i = 0; i < list.n; i++) df += mask[list.docs[i]!]!;
  return df;
}

/** Whether the version's latest view shares the live chunks of this page. */
export function versionSharesPage(db: Db, versionId: number, pageId: number): boolean {
  return cacheOf(db).views.get(versionId)?.shared.has(pageId) ?? true;
}

/** The search row of an overlay chunk (negative id), or undefined. */
export function overlayRow(db: Db, chunkId: number): ChunkCandidate | undefined {
  return cacheOf(db).overlayById.get(chunkId)?.row;
}

/** The terms an overlay chunk holds (ask's evidence), or undefined for a live chunk. */
export function overlayTerms(db: Db, chunkId: number): Set<string> | undefined {
  const chunk = cacheOf(db).overlayById.get(chunkId);
  return chunk ? new Set(chunk.terms.keys()) : undefined;
}

/** Bytes the versions' views of a database add to its live indexes (masks, norms, overlays). */
export function versionViewBytes(db: Db): { versions: number; bytes: number } {
  const { views } = cacheOf(db);
  let bytes = 0;
  for (const v of views.values()) {
    bytes += v.mask.byteLength + v.norms.byteLength + indexBytes(v.overlay);
  }
  return { versions: views.size, bytes };
}

/** The chunks of these pinned revisions: remembered, or chunked and counted now. */
async function overlayOf(
  db: Db,
  pairs: { page_id: number; revision: number }[],
): Promise<OverlayChunk[]> {
  const { overlayChunks } = cacheOf(db);
  const missing = pairs.filter((p) => !overlayChunks.has(`${p.page_id}:${p.revision}`));
  for (let i = 0; i < missing.length; i += 200) await chunkRevisions(db, missing.slice(i, i + 200));
  return pairs.flatMap((p) => overlayChunks.get(`${p.page_id}:${p.revision}`) ?? []);
}

/** Chunks revisions as a page write does, and counts their terms in PostgreSQL. */
async function chunkRevisions(db: Db, pairs: { page_id: number; revision: number }[]) {
  const revisions = await selectRevisionsOf(db, pairs);
  const chunks: { key: string; row: ChunkCandidate; heading: string; body: string }[] = [];
  for (const r of revisions) {
    const parsed = await parsePage(r.path, r.markdown, r.title);
    for (const c of parsed.chunks) {
      const heading = headingTextOf(r.title, c.headingPath);
      chunks.push({
        key: `${r.page_id}:${r.revision}`,
        heading: lexicalText(heading),
        body: lexicalText(c.text),
        row: {
          chunk_id: nextOverlayId--,
          page_id: r.page_id,
          wiki_id: r.wiki_id,
          path: r.path,
          title: r.title,
          revision: r.revision,
          updated_at: r.created_at,
          heading_path: c.headingPath,
          anchor: c.anchor,
          text: c.text,
          exact: null,
          synced: false,
          source_commit: null,
          last_synced_at: null,
        },
      });
    }
  }
  const counted = chunks.length > 0
    ? await selectTextTerms(db, chunks.map((c) => ({ heading: c.heading, body: c.body })))
    : [];
  const made: OverlayChunk[] = chunks.map((c) => ({ row: c.row, length: 0, terms: new Map() }));
  for (const t of counted) {
    const chunk = made[t.n]!;
    chunk.terms.set(t.term, [Math.min(t.h, 32767), Math.min(t.b, 32767)]);
    chunk.length += t.h + t.b;
  }
  const cache = cacheOf(db);
  const { overlayChunks, overlayById } = cache;
  for (const r of revisions) overlayChunks.set(`${r.page_id}:${r.revision}`, []);
  made.forEach((c, i) => {
    overlayChunks.get(chunks[i]!.key)!.push(c);
    overlayById.set(c.row.chunk_id, c);
  });
  cache.overlayChunkCount += made.length;
  while (cache.overlayChunkCount > 200_000 && overlayChunks.size > 0) {
    const [key, old] = overlayChunks.entries().next().value!;
    overlayChunks.delete(key);
    cache.overlayChunkCount -= old.length;
    for (const c of old) overlayById.delete(c.row.chunk_id);
  }
}

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
  postingsOf,
  topKChunks,
} from "./lexical_index.ts";
import { chunkHeadingText } from "./prepare_chunks.ts";
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
 * - a mask over its wiki's revision index: the chunks of the revisions it pins that the live
 *   pages no longer have (changed, renamed or deleted since). A revision is chunked and indexed
 *   once per process, keyed by page and revision, however many versions pin it;
 * - the document frequencies of the terms searched in it so far (each counted once per view).
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
  /** The wiki's revision index, and which of its chunks (below `pinned.length`) it pins. */
  revisions: RevisionIndex;
  pinned: Uint8Array;
  pinnedNorms: Float64Array;
  pinnedNormsFor: number;
  pinnedNormsCount: number;
  overlayN: number;
  overlayLength: number;
  /** Pages whose live chunks the version shares. */
  shared: Set<number>;
  /** The version's document frequency of each term searched in it (at most `DF_TERMS`). */
  dfs: Map<string, number>;
};

/** Terms whose document frequency a view remembers before it forgets them all. */
const DF_TERMS = 4096;

/**
 * The chunks of a wiki's pinned revisions that the live pages no longer have, each revision
 * once: one index shared by every version of the wiki, which only grows (its chunks are
 * immutable) until the process drops it. `byRevision` gives a revision's local numbers by
 * `page:revision`; `rows` the search row of each local number.
 */
type RevisionIndex = {
  index: LexicalIndex;
  byRevision: Map<string, number[]>;
  rows: ChunkCandidate[];
};

/**
 * What one process keeps for the versions of one database (ids are the database's; a replica's
 * read handle shares its primary's, as the live indexes do in lexical_cache.ts): views by
 * version id for the index they were built over (most recent 100), each wiki's revision index
 * (all dropped past 200,000 chunks), and where each overlay chunk (negative, process-local id)
 * sits.
 */
type VersionCache = {
  views: Map<number, View>;
  revisions: Map<string, RevisionIndex>;
  revisionChunks: number;
  overlayById: Map<number, { revisions: RevisionIndex; local: number }>;
};
const caches = new WeakMap<Db, VersionCache>();
/** Overlay chunk ids: negative, never reused in the process (never a live chunk's id). */
let nextOverlayId = -1;
/** Chunks of pinned revisions a process keeps, all wikis of a database together. */
const MAX_REVISION_CHUNKS = 200_000;

function cacheOf(db: Db): VersionCache {
  const home = db.home ?? db;
  let cache = caches.get(home);
  if (!cache) {
    caches.set(
      home,
      cache = { views: new Map(), revisions: new Map(), revisionChunks: 0, overlayById: new Map() },
    );
  }
  return cache;
}

function revisionIndexOf(cache: VersionCache, wikiId: string): RevisionIndex {
  let revisions = cache.revisions.get(wikiId);
  if (!revisions) {
    cache.revisions.set(
      wikiId,
      revisions = {
        index: emptyIndex(wikiId, 0, 16),
        byRevision: new Map(),
        rows: [],
      },
    );
  }
  return revisions;
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
  // Built from the primary, and kept for every read handle: a replica may lag behind the live
  // index the view is kept for (a page it still shows as shared would be searched in its live
  // text) or behind the version itself. Read newer than the index, a diverged page is searched
  // in its pinned revision, which is the version's text either way. Rare: once per version and
  // live index version.
  const home = db.home ?? db;
  const [pages, diverged] = await Promise.all([
    versionPageIndex(home, version),
    selectDivergedPages(home, version.id),
  ]);
  const gone = new Set(diverged);
  const shared = new Set<number>();
  for (const id of pages.byPage.keys()) if (!gone.has(id)) shared.add(id);
  const pairs = diverged.map((page_id) => ({
    page_id,
    revision: pages.byPage.get(page_id)!.revision,
  }));
  const revisions = await pinnedRevisions(home, version.wikiId, pairs);
  // The index may have moved on while the revisions were read: the mask is built over it as it
  // is now; the caller checks the version it scores against.
  const mask = new Uint8Array(live.size);
  let liveN = 0, liveLength = 0;
  for (let d = 0; d < live.size; d++) {
    if (live.alive[d] && shared.has(live.pageIds[d]!)) {
      mask[d] = 1;
      liveN++;
      liveLength += live.lengths[d]!;
    }
  }
  const pinned = new Uint8Array(revisions.index.size);
  let overlayN = 0, overlayLength = 0;
  for (const p of pairs) {
    for (const local of revisions.byRevision.get(`${p.page_id}:${p.revision}`) ?? []) {
      pinned[local] = 1;
      overlayN++;
      overlayLength += revisions.index.lengths[local]!;
    }
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
    revisions,
    pinned,
    pinnedNorms: new Float64Array(pinned.length),
    pinnedNormsFor: NaN,
    pinnedNormsCount: 0,
    overlayN,
    overlayLength,
    shared,
    dfs: new Map(),
  };
  views.delete(version.id);
  if (views.size >= 100) views.delete(views.keys().next().value!);
  views.set(version.id, view);
  return view;
}

/**
 * The `limit` best chunks of a version for the query's terms (all its lexemes, as
 * `selectLexicalStats` gives them in `query_terms`), best first, ties by ascending chunk id.
 * Synchronous: the live index is scored as it was when the view was built.
 */
export function versionTopK(
  view: View,
  queryTerms: string[],
  params: Bm25Params,
  limit: number,
): ChunkHit[] {
  const n = view.liveN + view.overlayN;
  if (n === 0) return [];
  const avgdl = (view.liveLength + view.overlayLength) / n;
  const terms: string[] = [];
  const dfs: number[] = [];
  for (const term of new Set(queryTerms)) {
    const df = dfOf(view, term);
    if (df > 0) {
      terms.push(term);
      dfs.push(df);
    }
  }
  const stats = { n, avgdl, terms, dfs };
  const live: LexicalIndex = {
    ...view.live,
    alive: view.mask,
    norms: view.norms,
    normsFor: view.normsFor,
    normsCount: view.normsCount,
  };
  const shared = topKChunks(live, stats, params, limit);
  // The scratch arrays are the shared indexes'; the norms are the view's own.
  view.live.touched = live.touched;
  view.normsFor = live.normsFor;
  view.normsCount = live.normsCount;
  if (view.overlayN === 0) return shared;
  const pinned: LexicalIndex = {
    ...view.revisions.index,
    size: view.pinned.length,
    alive: view.pinned,
    norms: view.pinnedNorms,
    normsFor: view.pinnedNormsFor,
    normsCount: view.pinnedNormsCount,
  };
  const own = topKChunks(pinned, stats, params, limit);
  view.revisions.index.touched = pinned.touched;
  view.pinnedNormsFor = pinned.normsFor;
  view.pinnedNormsCount = pinned.normsCount;
  return [...shared, ...own].sort((a, b) => b.score - a.score || a.chunk_id - b.chunk_id)
    .slice(0, limit);
}

/** The version's document frequency of `term`: counted through its masks once, then remembered. */
function dfOf(view: View, term: string): number {
  let df = view.dfs.get(term);
  if (df === undefined) {
    df = countIn(postingsOf(view.live, term), view.mask) +
      countIn(postingsOf(view.revisions.index, term), view.pinned);
    if (view.dfs.size >= DF_TERMS) view.dfs.clear();
    view.dfs.set(term, df);
  }
  return df;
}

/** The postings of `list` whose chunk `mask` holds (a chunk past its end is not held). */
function countIn(list: { docs: Int32Array; n: number } | undefined, mask: Uint8Array): number {
  if (!list) return 0;
  let df = 0;
  const size = mask.length;
  for (let i = 0; i < list.n; i++) {
    const d = list.docs[i]!;
    if (d < size) df += mask[d]!;
  }
  return df;
}

/** Whether the version's latest view shares the live chunks of this page. */
export function versionSharesPage(db: Db, versionId: number, pageId: number): boolean {
  return cacheOf(db).views.get(versionId)?.shared.has(pageId) ?? true;
}

/** The search row of an overlay chunk (negative id), or undefined. */
export function overlayRow(db: Db, chunkId: number): ChunkCandidate | undefined {
  const at = cacheOf(db).overlayById.get(chunkId);
  return at?.revisions.rows[at.local];
}

/**
 * Which of `terms` an overlay chunk holds (ask's evidence), or undefined for a chunk the
 * process does not hold (a live chunk).
 */
export function overlayTermsHeld(
  db: Db,
  chunkId: number,
  terms: string[],
): Set<string> | undefined {
  const at = cacheOf(db).overlayById.get(chunkId);
  if (!at) return undefined;
  const held = new Set<string>();
  for (const term of terms) {
    const list = postingsOf(at.revisions.index, term);
    if (list && list.docs.subarray(0, list.n).includes(at.local)) held.add(term);
  }
  return held;
}

/**
 * What the versions of a database add to its live indexes: bytes (the views' masks, norms and
 * remembered frequencies, and the revision indexes), and the chunks and postings the revision
 * indexes hold (each pinned revision once, however many versions pin it).
 */
export function versionViewBytes(
  db: Db,
): { versions: number; bytes: number; overlay_chunks: number; overlay_postings: number } {
  const { views, revisions } = cacheOf(db);
  let bytes = 0, chunks = 0, postings = 0;
  for (const v of views.values()) {
    bytes += v.mask.byteLength + v.norms.byteLength + v.pinned.byteLength +
      v.pinnedNorms.byteLength;
    for (const term of v.dfs.keys()) bytes += 48 + 2 * term.length;
  }
  for (const r of revisions.values()) {
    bytes += indexBytes(r.index);
    chunks += r.index.size;
    postings += r.index.postings;
  }
  return { versions: views.size, bytes, overlay_chunks: chunks, overlay_postings: postings };
}

/**
 * The wiki's revision index, holding the chunks of these pinned revisions: those it lacks are
 * chunked and indexed now (each once, even when two versions ask for it at the same time).
 */
async function pinnedRevisions(
  db: Db,
  wikiId: string,
  pairs: { page_id: number; revision: number }[],
): Promise<RevisionIndex> {
  const cache = cacheOf(db);
  const held = (p: { page_id: number; revision: number }) =>
    cache.revisions.get(wikiId)?.byRevision.has(`${p.page_id}:${p.revision}`) ?? false;
  const missing = pairs.filter((p) => !held(p));
  // Past the cap, the revisions are read again from scratch: dropped before this build, so that
  // what it reads stays until its view is made.
  if (missing.length > 0 && cache.revisionChunks > MAX_REVISION_CHUNKS) dropRevisions(cache);
  for (let i = 0; i < missing.length; i += 200) {
    const chunks = await chunkRevisions(db, missing.slice(i, i + 200));
    const revisions = revisionIndexOf(cache, wikiId);
    // A revision another view's build indexed meanwhile is not indexed twice.
    const taken = new Set(chunks.map((c) => c.key).filter((k) => revisions.byRevision.has(k)));
    for (const c of chunks) {
      if (taken.has(c.key)) continue;
      let locals = revisions.byRevision.get(c.key);
      if (!locals) revisions.byRevision.set(c.key, locals = []);
      if (c.row === null) continue;
      const local = addChunk(revisions.index, c.row.chunk_id, c.row.page_id, c.length);
      for (const [term, [h, b]] of c.terms) addPosting(revisions.index, term, local, h, b);
      locals.push(local);
      revisions.rows[local] = c.row;
      cache.overlayById.set(c.row.chunk_id, { revisions, local });
      cache.revisionChunks++;
    }
  }
  return revisionIndexOf(cache, wikiId);
}

/** Forgets every revision index of the database, and the views over them. */
function dropRevisions(cache: VersionCache): void {
  cache.revisions.clear();
  cache.views.clear();
  cache.overlayById.clear();
  cache.revisionChunks = 0;
}

/** A chunk of a pinned revision, counted; a revision without chunks comes as one null row. */
type RevisionChunk = {
  key: string;
  row: ChunkCandidate | null;
  length: number;
  terms: Map<string, [number, number]>;
};

/** Chunks revisions as a page write does, and counts their terms in PostgreSQL. */
async function chunkRevisions(
  db: Db,
  pairs: { page_id: number; revision: number }[],
): Promise<RevisionChunk[]> {
  const revisions = await selectRevisionsOf(db, pairs);
  const chunks: RevisionChunk[] = [];
  const texts: { heading: string; body: string }[] = [];
  for (const r of revisions) {
    const key = `${r.page_id}:${r.revision}`;
    const parsed = await parsePage(r.path, r.markdown, r.title);
    if (parsed.chunks.length === 0) {
      chunks.push({ key, row: null, length: 0, terms: new Map() });
    }
    for (const c of parsed.chunks) {
      texts.push({
        heading: lexicalText(chunkHeadingText(parsed, c)),
        body: lexicalText(c.text),
      });
      chunks.push({
        key,
        length: 0,
        terms: new Map(),
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
  const counted = texts.length > 0 ? await selectTextTerms(db, texts) : [];
  const withRows = chunks.filter((c) => c.row !== null);
  for (const t of counted) {
    const chunk = withRows[t.n]!;
    chunk.terms.set(t.term, [Math.min(t.h, 32767), Math.min(t.b, 32767)]);
    chunk.length += t.h + t.b;
  }
  return chunks;
}

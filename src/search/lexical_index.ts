import { bm25Idf, bm25Norm, bm25TermNormed } from "./bm25.ts";
import type { Bm25Params, ChunkCandidate, ChunkHit } from "./store.ts";

export type { Bm25Params, ChunkCandidate, ChunkHit };

/** One term's postings: chunks (local numbers) with the term's frequencies; grows in place. */
type Postings = { docs: Int32Array; heading: Uint16Array; body: Uint16Array; n: number };

/**
 * A wiki's BM25 postings in memory, as typed arrays: 8 bytes a posting (local chunk number,
 * heading and body frequencies), and per chunk its id, page, length and whether it is still
 * there. Chunks get local numbers in the order they arrive; a removed chunk is only marked
 * dead until `compactIndex` drops it. Document frequencies and the average length are not
 * kept here: every search reads them from PostgreSQL with the index version.
 */
export type LexicalIndex = {
  wikiId: string;
  /** The `search_stats.version` these postings are at (or newer: see lexical_cache.ts). */
  version: number;
  /** Terms with lists of their own (added posting by posting). */
  terms: Map<string, Postings>;
  /** Terms whose postings stand in `block` (a build's, term by term): their slot there. */
  packed: Map<string, number>;
  block: Block;
  chunkIds: Float64Array;
  pageIds: Float64Array;
  lengths: Int32Array;
  alive: Uint8Array;
  /** Local numbers in use (live and dead). */
  size: number;
  dead: number;
  postings: number;
  /** Score accumulator of a search, one slot per local number, zero between searches. */
  scores: Float64Array;
  /** Which chunks the search in progress has scored, zero between searches. */
  seen: Uint8Array;
  /** The local numbers of those chunks, in the order first scored (scratch of a search). */
  touched: Int32Array;
  /** Each chunk's `bm25Norm` for the average length `normsFor` (NaN: to be computed). */
  norms: Float64Array;
  normsFor: number;
  normsCount: number;
};

/**
 * Postings of many terms in one set of arrays, each term's a run from `start[slot]` of
 * `count[slot]` postings (`used` of the arrays in use): a term costs its map entry and two
 * numbers instead of an object and three typed arrays (about 700 bytes, `TERM_OVERHEAD_BYTES`),
 * so a hub's many small wikis, most of whose terms have a posting or two, take a fraction of
 * the memory and the cache keeps many more of them.
 */
type Block = {
  docs: Int32Array;
  heading: Uint16Array;
  body: Uint16Array;
  used: number;
  start: Int32Array;
  count: Int32Array;
  slots: number;
};

function emptyBlock(): Block {
  return {
    docs: new Int32Array(0),
    heading: new Uint16Array(0),
    body: new Uint16Array(0),
    used: 0,
    start: new Int32Array(0),
    count: new Int32Array(0),
    slots: 0,
  };
}

/** A term's postings, its own list or a view of its run in the block; undefined if none. */
export function postingsOf(index: LexicalIndex, term: string): Postings | undefined {
  const own = index.terms.get(term);
  if (own) return own;
  const slot = index.packed.get(term);
  if (slot === undefined) return undefined;
  const { block } = index;
  const from = block.start[slot]!;
  const n = block.count[slot]!;
  return {
    docs: block.docs.subarray(from, from + n),
    heading: block.heading.subarray(from, from + n),
    body: block.body.subarray(from, from + n),
    n,
  };
}

/** How many distinct terms the index holds. */
export function termCount(index: LexicalIndex): number {
  return index.terms.size + index.packed.size;
}

/** An empty index with room for `chunks` chunks. */
export function emptyIndex(wikiId: string, version: number, chunks: number): LexicalIndex {
  const room = Math.max(16, chunks);
  return {
    wikiId,
    version,
    terms: new Map(),
    packed: new Map(),
    block: emptyBlock(),
    chunkIds: new Float64Array(room),
    pageIds: new Float64Array(room),
    lengths: new Int32Array(room),
    alive: new Uint8Array(room),
    size: 0,
    dead: 0,
    postings: 0,
    scores: new Float64Array(room),
    seen: new Uint8Array(room),
    touched: new Int32Array(0),
    norms: new Float64Array(room),
    normsFor: NaN,
    normsCount: 0,
  };
}

/** Adds a chunk and returns its local number. */
export function addChunk(index: LexicalIndex, id: number, pageId: number, length: number): number {
  if (index.size === index.chunkIds.length) {
    const room = Math.ceil(index.size * 1.5) + 16;
    index.chunkIds = grow(index.chunkIds, room);
    index.pageIds = grow(index.pageIds, room);
    index.lengths = grow(index.lengths, room);
    index.alive = grow(index.alive, room);
    index.scores = new Float64Array(room);
    index.seen = new Uint8Array(room);
    index.norms = grow(index.norms, room);
  }
  const local = index.size++;
  index.chunkIds[local] = id;
  index.pageIds[local] = pageId;
  index.lengths[local] = length;
  index.alive[local] = 1;
  return local;
}

/** Adds one posting of `term`; `expected` sizes a new list (the term's posting count, if known). */
export function addPosting(
  index: LexicalIndex,
  term: string,
  local: number,
  tfHeading: number,
  tfBody: number,
  expected = 4,
): void {
  let list = index.terms.get(term);
  // A packed term that grows gets a list of its own (its run in the block is left unused).
  if (!list && index.packed.has(term)) {
    const view = postingsOf(index, term)!;
    const room = view.n + expected;
    list = {
      docs: grow(view.docs, room),
      heading: grow(view.heading, room),
      body: grow(view.body, room),
      n: view.n,
    };
    index.packed.delete(term);
    index.terms.set(term, list);
  }
  if (!list) {
    list = {
      docs: new Int32Array(expected),
      heading: new Uint16Array(expected),
      body: new Uint16Array(expected),
      n: 0,
    };
    index.terms.set(term, list);
  }
  if (list.n === list.docs.length) {
    const room = Math.ceil(list.n * 1.5) + 4;
    list.docs = grow(list.docs, room);
    list.heading = grow(list.heading, room);
    list.body = grow(list.body, room);
  }
  list.docs[list.n] = local;
  list.heading[list.n] = tfHeading;
  list.body[list.n] = tfBody;
  list.n++;
  index.postings++;
}

/**
 * Adds a term's postings from `count` packed records (`read(i)` gives the i-th record's local
 * number, or -1 to skip it, and its frequencies): the build's way, a new term's postings
 * appended to the index's block (`Block`); `trimBlock` frees the block's spare room after.
 */
export function addPackedPostings(
  index: LexicalIndex,
  term: string,
  count: number,
  local: (i: number) => number,
  tfHeading: (i: number) => number,
  tfBody: (i: number) => number,
): void {
  if (index.terms.has(term) || index.packed.has(term)) {
    for (let i = 0; i < count; i++) {
      const d = local(i);
      if (d >= 0) addPosting(index, term, d, tfHeading(i), tfBody(i));
    }
    return;
  }
  const block = index.block;
  if (block.used + count > block.docs.length) {
    const room = Math.ceil((block.used + count) * 1.5) + 1024;
    block.docs = grow(block.docs, room);
    block.heading = grow(block.heading, room);
    block.body = grow(block.body, room);
  }
  const from = block.used;
  let n = 0;
  for (let i = 0; i < count; i++) {
    const d = local(i);
    if (d < 0) continue;
    block.docs[from + n] = d;
    block.heading[from + n] = tfHeading(i);
    block.body[from + n] = tfBody(i);
    n++;
  }
  if (n === 0) return;
  if (block.slots === block.start.length) {
    const room = Math.ceil(block.slots * 1.5) + 256;
    block.start = grow(block.start, room);
    block.count = grow(block.count, room);
  }
  block.start[block.slots] = from;
  block.count[block.slots] = n;
  index.packed.set(term, block.slots++);
  block.used += n;
  index.postings += n;
}

/** Frees the block's spare room (after a build): its arrays shrink to what they hold. */
export function trimBlock(index: LexicalIndex): void {
  const b = index.block;
  b.docs = b.docs.slice(0, b.used);
  b.heading = b.heading.slice(0, b.used);
  b.body = b.body.slice(0, b.used);
  b.start = b.start.slice(0, b.slots);
  b.count = b.count.slice(0, b.slots);
}

/** Marks every live chunk of the given pages dead (their postings stay until compaction). */
export function removePages(index: LexicalIndex, pageIds: Set<number>): void {
  for (let i = 0; i < index.size; i++) {
    if (index.alive[i] && pageIds.has(index.pageIds[i]!)) {
      index.alive[i] = 0;
      index.dead++;
    }
  }
}

/** Whether dead chunks hold enough of the index to be worth dropping (a quarter). */
export function needsCompaction(index: LexicalIndex): boolean {
  return index.dead > 64 && index.dead * 4 > index.size;
}

/** Drops dead chunks and their postings, renumbering the live ones in order. */
export function compactIndex(index: LexicalIndex): void {
  const renumber = new Int32Array(index.size).fill(-1);
  let live = 0;
  for (let i = 0; i < index.size; i++) {
    if (!index.alive[i]) continue;
    renumber[i] = live;
    index.chunkIds[live] = index.chunkIds[i]!;
    index.pageIds[live] = index.pageIds[i]!;
    index.lengths[live] = index.lengths[i]!;
    index.alive[live] = 1;
    live++;
  }
  index.alive.fill(0, live);
  index.size = live;
  index.normsCount = 0;
  index.dead = 0;
  index.postings = 0;
  const { block } = index;
  for (const [term, slot] of index.packed) {
    const from = block.start[slot]!;
    let n = 0;
    for (let i = from; i < from + block.count[slot]!; i++) {
      const to = renumber[block.docs[i]!]!;
      if (to < 0) continue;
      block.docs[from + n] = to;
      block.heading[from + n] = block.heading[i]!;
      block.body[from + n] = block.body[i]!;
      n++;
    }
    block.count[slot] = n;
    if (n === 0) index.packed.delete(term);
    index.postings += n;
  }
  for (const [term, list] of index.terms) {
    let n = 0;
    for (let i = 0; i < list.n; i++) {
      const to = renumber[list.docs[i]!]!;
      if (to < 0) continue;
      list.docs[n] = to;
      list.heading[n] = list.heading[i]!;
      list.body[n] = list.body[i]!;
      n++;
    }
    if (n === 0) index.terms.delete(term);
    else {
      list.n = n;
      if (n < list.docs.length / 2) {
        list.docs = list.docs.slice(0, n);
        list.heading = list.heading.slice(0, n);
        list.body = list.body.slice(0, n);
      }
    }
    index.postings += n;
  }
}

/** What a search needs besides the postings: the wiki's statistics, read with its version. */
export type QueryStats = { n: number; avgdl: number; terms: string[]; dfs: number[] };

/**
 * The `k` best chunks for a query by exhaustive BM25, best first, ties by ascending chunk id,
 * as `selectBm25` orders them, each with its page. Every posting of every query term is added into a score per
 * chunk (term at a time, in the order of `stats.terms`), then the best are picked with a heap
 * of `k`. The terms are those `selectLexicalStats` kept (a hyphenated word by its parts). In memory this reads 60,000 postings in well under a millisecond, so no posting is
 * skipped: the sums are those of the SQL leg (docs/decisions.md, Retrieval).
 */
export function topKChunks(
  index: LexicalIndex,
  stats: QueryStats,
  params: Bm25Params,
  k: number,
): ChunkHit[] {
  const { scores, seen, alive } = index;
  const norms = normsOf(index, stats.avgdl, params);
  if (index.touched.length < index.size) index.touched = new Int32Array(index.chunkIds.length);
  const touched = index.touched;
  let count = 0;
  for (let t = 0; t < stats.terms.length; t++) {
    const list = postingsOf(index, stats.terms[t]!);
    if (!list) continue;
    const idf = bm25Idf(stats.n, stats.dfs[t]!);
    const { docs, heading, body, n } = list;
    for (let i = 0; i < n; i++) {
      const d = docs[i]!;
      if (!alive[d]) continue;
      if (!seen[d]) {
        seen[d] = 1;
        touched[count++] = d;
      }
      scores[d] = scores[d]! + bm25TermNormed(idf, heading[i]!, body[i]!, norms[d]!, params);
    }
  }
  const hits = selectBest(index, touched.subarray(0, count), k).map((d) => ({
    chunk_id: index.chunkIds[d]!,
    score: scores[d]!,
    page_id: index.pageIds[d]!,
  }));
  for (let i = 0; i < count; i++) {
    const d = touched[i]!;
    scores[d] = 0;
    seen[d] = 0;
  }
  return hits;
}

/**
 * A bound no chunk of the wiki reaches for the query: each term's IDF times BM25's saturation
 * ceiling, `k1 + 1`, which `bm25TermNormed` approaches as the term's frequency grows and never
 * reaches (a chunk's score is a sum of one such contribution per term it holds). Read from the
 * statistics alone, before any posting; `prunedTopK` (lexical_cache.ts) skips wikis by it.
 */
export function scoreBound(stats: QueryStats, params: Bm25Params): number {
  let bound = 0;
  for (let t = 0; t < stats.terms.length; t++) {
    bound += bm25Idf(stats.n, stats.dfs[t]!) * (params.k1 + 1);
  }
  // Above any rounding of the sum of the terms' contributions.
  return bound * (1 + 1e-9);
}

/** Each chunk's `bm25Norm` at this average length, computed again when it or the chunks change. */
function normsOf(index: LexicalIndex, avgdl: number, params: Bm25Params): Float64Array {
  if (index.normsFor !== avgdl) index.normsCount = 0;
  for (let d = index.normsCount; d < index.size; d++) {
    index.norms[d] = bm25Norm(index.lengths[d]!, avgdl, params);
  }
  index.normsFor = avgdl;
  index.normsCount = index.size;
  return index.norms;
}

/** The `k` best of `touched` (local numbers), best first: a min-heap on (score, -chunk id). */
function selectBest(index: LexicalIndex, touched: Int32Array, k: number): number[] {
  const { scores, chunkIds } = index;
  // a ranks below b: lower score, or the same score and a larger chunk id
  const below = (a: number, b: number) =>
    scores[a]! < scores[b]! || (scores[a] === scores[b] && chunkIds[a]! > chunkIds[b]!);
  const heap: number[] = [];
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < heap.length && below(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && below(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  // Once the heap holds k, most chunks score below its least: one comparison turns them away.
  let floor = -Infinity;
  for (const d of touched) {
    if (heap.length < k) {
      heap.push(d);
      for (let i = heap.length - 1; i > 0;) {
        const p = (i - 1) >> 1;
        if (!below(heap[i]!, heap[p]!)) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
      if (heap.length === k) floor = scores[heap[0]!]!;
    } else if (k > 0 && scores[d]! >= floor && below(heap[0]!, d)) {
      heap[0] = d;
      down(0);
      floor = scores[heap[0]!]!;
    }
  }
  return heap.sort((a, b) => below(a, b) ? 1 : below(b, a) ? -1 : 0);
}

/**
 * What a term costs the process beyond its postings' bytes and its text: its map entry, its
 * `Postings` object and, for each of its three typed arrays, the array's object, its array
 * buffer and the buffer's backing store. Measured (heap plus external memory after a full GC)
 * on Deno 2.9 / V8 15: about 700 bytes a term whatever its postings, so for the many terms
 * with a posting or two these objects, not the postings, are the memory
 * (tests/lexical_memory_test.ts holds the estimate to the measured figure).
 */
export const TERM_OVERHEAD_BYTES = 700;

/**
 * What a term in the block (`Block`) costs beyond its postings and its text: its entry in the
 * `packed` map and its string's header, measured as `TERM_OVERHEAD_BYTES` is.
 */
export const PACKED_TERM_BYTES = 52;

/**
 * The memory the index takes, as the cache counts it against its bound: the typed arrays'
 * bytes, and per term `TERM_OVERHEAD_BYTES` (`PACKED_TERM_BYTES` in the block) and its text.
 */
export function indexBytes(index: LexicalIndex): number {
  const b = index.block;
  let bytes = index.chunkIds.byteLength + index.pageIds.byteLength + index.lengths.byteLength +
    index.alive.byteLength + index.scores.byteLength + index.seen.byteLength +
    index.touched.byteLength + index.norms.byteLength + b.docs.byteLength +
    b.heading.byteLength + b.body.byteLength + b.start.byteLength + b.count.byteLength;
  for (const term of index.packed.keys()) bytes += PACKED_TERM_BYTES + term.length;
  for (const [term, list] of index.terms) {
    bytes += TERM_OVERHEAD_BYTES + term.length + list.docs.byteLength + list.heading.byteLength +
      list.body.byteLength;
  }
  return bytes;
}

function grow<T extends Int32Array | Uint16Array | Uint8Array | Float64Array>(
  a: T,
  room: number,
): T {
  const b = new (a.constructor as new (n: number) => T)(room);
  b.set(a);
  return b;
}

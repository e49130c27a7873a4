import type { Config } from "../config/config.ts";
import type { Db } from "../db/db.ts";
import type { Log } from "../lib/log.ts";
import {
  addChunk,
  addPackedPostings,
  addPosting,
  compactIndex,
  emptyIndex,
  indexBytes,
  type LexicalIndex,
  needsCompaction,
  removePages,
  scoreBound,
  topKChunks,
  trimBlock,
} from "./lexical_index.ts";
import {
  type Bm25Params,
  type ChunkHit,
  type LexicalStats,
  selectBm25,
  selectChangedPages,
  selectIndexedChunks,
  selectLexicalStats,
  selectPackedPostings,
  selectPagePostings,
  selectTermAfter,
} from "./store.ts";
import { resolveVersions, type Version } from "../versions/versions.ts";
import { versionTopK, versionView } from "./version_index.ts";

/** One wiki's slot: its index (null while none is built), and the queue of its updates. */
type Entry = {
  index: LexicalIndex | null;
  bytes: number;
  tooLarge: boolean;
  /** A first build runs in the background. */
  building: boolean;
  queue: Promise<unknown>;
};

/**
 * The indexes one process holds for one database, least recently searched first, and how often
 * each wiki was searched lately (`asked`, halved every `HALVE_EVERY` searches; `searches` counts
 * them).
 */
type Cache = {
  wikis: Map<string, Entry>;
  bytes: number;
  asked: Map<string, number>;
  searches: number;
  /** Searches answered from memory alone, and with the SQL leg, since the process started. */
  answered: { memory: number; sql: number };
};

/** Searches after which every wiki's count of recent searches is halved: counts follow today's. */
const HALVE_EVERY = 1_000;

/** One cache per database handle: two apps over one store in one process keep their own. */
const caches = new WeakMap<Db, Cache>();

/** Terms read per statement when a wiki's index is built. */
const TERMS_PER_READ = 5_000;

/** How often a search re-reads the statistics when a write lands while it catches up. */
const ATTEMPTS = 3;

type LexicalDeps = {
  db: Db;
  config: Pick<Config, "searchIndexBytes">;
  visibilitySeen?: Map<string, string>;
  log?: Pick<Log, "debug">;
};

/**
 * The lexical leg: the `limit` best chunks of the given wikis by BM25, best first, ties by
 * ascending chunk id, scored from each wiki's postings held in this process's memory. One
 * statement per search reads the query's terms with their document frequencies and each wiki's
 * index version; a copy older than that version catches up first (the pages changed since, from
 * `search_changes`, or the whole wiki when the log no longer reaches back). A write in any
 * process is therefore seen by the next search in every process. Wikis whose index would not fit
 * in `searchIndexBytes` are scored in SQL (`selectBm25`), with the same formula. `found`
 * receives the wikis whose statistics were read: they exist (a wiki that never held a chunk
 * has none, so its absence proves nothing). A wiki in `versions` is searched in that version
 * of it (src/search/version_index.ts), over the same in-memory index; `asked` names a version
 * read with the statistics and added to `versions` (an unknown one fails). Each wiki's
 * visibility, read in the same statement, goes to `deps.visibilitySeen` when given.
 */
export async function lexicalTopK(
  deps: LexicalDeps,
  wikiIds: string[],
  query: string,
  params: Bm25Params,
  limit: number,
  found?: Set<string>,
  versions?: Map<string, Version>,
  defaults = false,
  asked: string | null = null,
): Promise<ChunkHit[]> {
  const cache = cacheOf(deps.db);
  const versioned = (id: string) => versions?.get(id);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const read = await selectLexicalStats(deps.db, wikiIds, query, asked);
    for (const s of read) {
      found?.add(s.wiki_id);
      deps.visibilitySeen?.set(s.wiki_id, s.visibility);
    }
    if (asked !== null && versions) await addAsked(deps.db, read, asked, versions);
    // A wiki with a default version is searched in it when the caller named none.
    for (const s of read) {
      if (!defaults || !versions || s.default_id === null || versions.has(s.wiki_id)) continue;
      versions.set(s.wiki_id, {
        id: s.default_id,
        wikiId: s.wiki_id,
        name: s.default_name!,
        createdAt: s.default_at!,
        isDefault: true,
      });
    }
    const stats = read.filter((s) => s.terms.length > 0 || versioned(s.wiki_id));
    if (stats.length > 1 && !stats.some((s) => versioned(s.wiki_id))) {
      const hits = await prunedTopK(deps, cache, stats, query, params, limit);
      if (hits) return hits;
      continue; // an index newer than the statistics read: read them again
    }
    const indexes = await Promise.all(
      stats.map((s) => currentIndex(deps, cache, s, versioned(s.wiki_id) !== undefined)),
    );
    if (indexes.some((index) => index === null)) break;
    const views = await Promise.all(stats.map((s, i) => {
      const version = versioned(s.wiki_id);
      return version ? versionView(deps.db, version, indexes[i]!) : null;
    }));
    // From here on nothing awaits: the versions checked are the ones scored.
    if (indexes.some((index, i) => index!.version !== stats[i]!.version)) continue;
    if (views.some((v, i) => v && v.liveVersion !== indexes[i]!.version)) continue;
    cache.answered.memory++;
    return indexes.flatMap((index, i) =>
      views[i]
        ? versionTopK(views[i], stats[i]!.query_terms, params, limit)
        : topKChunks(index!, stats[i]!, params, limit)
    )
      .sort((a, b) => b.score - a.score || a.chunk_id - b.chunk_id)
      .slice(0, limit);
  }
  // The SQL leg scores the live pages only: a version is never answered from them.
  if (wikiIds.some((id) => versioned(id))) {
    throw new Error("A version of this wiki cannot be searched: its index does not fit in memory");
  }
  cache.answered.sql++;
  return await selectBm25(deps.db, wikiIds, query, params, limit);
}

/**
 * The `limit` best chunks of several wikis, as the exhaustive merge of every wiki's own best
 * gives them, without touching the wikis that cannot reach them (a WAND at the level of wikis):
 * each wiki's best possible score for the query (`scoreBound`, from the statistics already read)
 * orders them, and once `limit` chunks are held, a wiki whose bound is below the least of them
 * (and every wiki after it) is skipped: its index is neither read nor built. A wiki is scored in
 * memory when its index is there, or built when the cache has room for it without dropping
 * another; the others still in reach (too large, a first build running in the background, or
 * no room: a hub's hundreds of wikis in a cache that holds a few) are scored together in SQL
 * (`selectBm25`, one statement), so a search across a hub never churns the cache. Null when an
 * index is newer than the statistics read (the caller reads them again).
 */
async function prunedTopK(
  deps: LexicalDeps,
  cache: Cache,
  stats: LexicalStats[],
  query: string,
  params: Bm25Params,
  limit: number,
): Promise<ChunkHit[] | null> {
  const order = stats.map((s) => ({ s, bound: scoreBound(s, params) }))
    .sort((a, b) => b.bound - a.bound || (a.s.wiki_id < b.s.wiki_id ? -1 : 1));
  let best: ChunkHit[] = [];
  // Strictly below: a chunk scoring exactly the least held could still rank by its id.
  const outOfReach = (bound: number) => best.length >= limit && best[limit - 1]!.score > bound;
  const inSql: { id: string; bound: number }[] = [];
  let room = deps.config.searchIndexBytes - cache.bytes;
  const perChunk = bytesPerChunk(cache);
  for (const { s, bound } of order) {
    if (outOfReach(bound)) break;
    const held = cache.wikis.get(s.wiki_id)?.index;
    // A wiki not in memory is built only if it fits beside the others (by the bytes a chunk
    // takes in the indexes held): a build that drops another index would be undone by the next.
    const fits = !held && s.n * perChunk <= room;
    if (fits) room -= s.n * perChunk;
    const index = held || fits ? await currentIndex(deps, cache, s) : null;
    if (!index) {
      inSql.push({ id: s.wiki_id, bound });
      continue;
    }
    if (index.version !== s.version) return null;
    // Nothing awaits between the version's check and the scoring.
    best = merged(best, topKChunks(index, s, params, limit), limit);
  }
  const rest = inSql.filter((w) => !outOfReach(w.bound)).map((w) => w.id);
  if (rest.length === 0) {
    cache.answered.memory++;
    return best;
  }
  cache.answered.sql++;
  return merged(best, await selectBm25(deps.db, rest, query, params, limit), limit);
}

/** The bytes a chunk takes in the indexes the cache holds (600 while it holds none). */
function bytesPerChunk(cache: Cache): number {
  let chunks = 0;
  for (const e of cache.wikis.values()) if (e.index) chunks += e.index.size;
  return chunks > 0 ? cache.bytes / chunks : 600;
}

/** Two rankings as one, best first, ties by ascending chunk id, the first `limit`. */
function merged(a: ChunkHit[], b: ChunkHit[], limit: number): ChunkHit[] {
  return a.concat(b).sort((x, y) => y.score - x.score || x.chunk_id - y.chunk_id).slice(0, limit);
}

/**
 * Adds the version `asked` names of each wiki the statistics read to `versions`; a wiki without
 * it fails with the versions it has (`resolveVersions`), never answering from another.
 */
async function addAsked(
  db: Db,
  read: LexicalStats[],
  asked: string,
  versions: Map<string, Version>,
): Promise<void> {
  for (const s of read) {
    if (versions.has(s.wiki_id)) continue;
    if (s.asked_id === null) {
      for (const [id, v] of await resolveVersions(db, [s.wiki_id], asked)) versions.set(id, v);
      continue;
    }
    versions.set(s.wiki_id, {
      id: s.asked_id,
      wikiId: s.wiki_id,
      name: s.asked_name!,
      createdAt: s.asked_at!,
      isDefault: s.asked_id === s.default_id,
    });
  }
}

/**
 * The indexes kept for `db`'s database: a replica's handle shares its primary's. An index's
 * version stays no newer than what it was read at: a request's reads move from its replica to
 * the primary (when the replica fails) but never back, and a replica is never ahead of the
 * primary, so whatever a catch-up reads after its statistics is at their version or newer.
 */
function cacheOf(db: Db): Cache {
  const home = db.home ?? db;
  let cache = caches.get(home);
  if (!cache) {
    const answered = { memory: 0, sql: 0 };
    caches.set(
      home,
      cache = { wikis: new Map(), bytes: 0, asked: new Map(), searches: 0, answered },
    );
  }
  return cache;
}

/**
 * Wikis up to this many chunks are indexed before their first search is answered (a fraction
 * of a second); a larger one is read in the background while the SQL leg answers its searches.
 */
const FOREGROUND_CHUNKS = 20_000;

/**
 * The wiki's index at the version `stats` read (or a later one), or null when the SQL leg is to
 * answer: the wiki does not fit in memory, or its first build runs in the background (`wait`
 * waits for it). Updates of one wiki run one at a time; a search of an up-to-date index waits for
 * nothing.
 */
async function currentIndex(
  deps: LexicalDeps,
  cache: Cache,
  stats: LexicalStats,
  wait = false,
): Promise<LexicalIndex | null> {
  let entry = cache.wikis.get(stats.wiki_id);
  if (entry) cache.wikis.delete(stats.wiki_id);
  entry ??= { index: null, bytes: 0, tooLarge: false, building: false, queue: Promise.resolve() };
  cache.wikis.set(stats.wiki_id, entry); // most recently used last
  const asked = wait ? 0 : countSearch(cache, stats.wiki_id);
  if (entry.tooLarge) return null;
  if (entry.index && entry.index.version >= stats.version) return entry.index;
  const e = entry;
  if (!e.index && !wait && !admitted(deps, cache, e, stats, asked)) return null;
  const background = !e.index && !wait && stats.n > FOREGROUND_CHUNKS;
  if (background && e.building) return null;
  const update = e.queue.then(() => update_(deps, cache, e, stats));
  e.queue = update.catch(() => {});
  if (!background) return await update;
  e.building = true;
  e.queue = e.queue.finally(() => e.building = false);
  return null;
}

/** Counts a search of the wiki; every `HALVE_EVERY` searches all counts are halved. */
function countSearch(cache: Cache, wikiId: string): number {
  cache.asked.set(wikiId, (cache.asked.get(wikiId) ?? 0) + 1);
  if (++cache.searches % HALVE_EVERY === 0) {
    for (const [id, n] of cache.asked) {
      if (n < 2) cache.asked.delete(id);
      else cache.asked.set(id, n >> 1);
    }
  }
  return cache.asked.get(wikiId) ?? 0;
}

/**
 * Whether a wiki with no index in memory is read into it now: when it fits beside the indexes
 * held, or when it was searched more often lately than every index its build would drop (least
 * recently searched first). Otherwise the SQL leg answers its search. With more wikis searched
 * than memory holds (a hub's per-wiki searches), building on every miss dropped the index the
 * next search needed, and each search paid a build; a wiki searched often still gets in.
 */
function admitted(
  deps: LexicalDeps,
  cache: Cache,
  entry: Entry,
  stats: LexicalStats,
  asked: number,
): boolean {
  const need = stats.n * bytesPerChunk(cache);
  let free = deps.config.searchIndexBytes - cache.bytes;
  if (need <= free) return true;
  for (const [wikiId, other] of cache.wikis) {
    if (other === entry || !other.index) continue;
    if ((cache.asked.get(wikiId) ?? 0) >= asked) return false;
    free += other.bytes;
    if (need <= free) return true;
  }
  return true; // larger than the whole bound: its build finds it too large, once
}

/**
 * Brings this process's indexes of the given wikis up to date, waiting for any build: for a
 * benchmark that measures searches, not the first read of a wiki.
 */
export async function warmLexicalIndex(deps: LexicalDeps, wikiIds: string[]): Promise<void> {
  const cache = cacheOf(deps.db);
  for (const stats of await selectLexicalStats(deps.db, wikiIds, "")) {
    await currentIndex(deps, cache, stats, true);
  }
}

async function update_(
  deps: LexicalDeps,
  cache: Cache,
  entry: Entry,
  stats: LexicalStats,
): Promise<LexicalIndex | null> {
  const index = entry.index;
  if (entry.tooLarge) return null;
  if (index && index.version >= stats.version) return index;
  if (index && index.version >= stats.log_from) {
    const pages = await selectChangedPages(deps.db, stats.wiki_id, index.version);
    if (pages.length <= Math.max(100, index.size / 10)) {
      const rows = await selectPagePostings(deps.db, pages);
      removePages(index, new Set(pages));
      const local = new Map<number, number>();
      for (const r of rows) {
        let at = local.get(r.chunk_id);
        if (at === undefined) {
          local.set(r.chunk_id, at = addChunk(index, r.chunk_id, r.page_id, r.length));
        }
        if (r.term !== null) addPosting(index, r.term, at, r.tf_heading, r.tf_body);
      }
      if (needsCompaction(index)) compactIndex(index);
      logRead(deps, stats, index, { from: index.version, pages: pages.length });
      index.version = stats.version;
      account(deps, cache, entry, index);
      return index;
    }
  }
  const built = await buildIndex(deps.db, stats.wiki_id, stats.version);
  if (built) logRead(deps, stats, built, { from: null, pages: null });
  if (!built) {
    cache.bytes -= entry.bytes;
    Object.assign(entry, { index: null, bytes: 0, tooLarge: true });
    return null;
  }
  account(deps, cache, entry, built);
  return entry.index;
}

/**
 * Says at debug level what a read of a wiki's postings gave against the statistics that asked
 * for it: a copy whose chunks differ from the `chunks` the statistics counted read the store at
 * another moment than they did (a write landed between: the next search catches up), which is
 * what a search that keeps missing a page needs told apart from a replica that lacks it.
 */
function logRead(
  deps: LexicalDeps,
  stats: LexicalStats,
  index: LexicalIndex,
  read: { from: number | null; pages: number | null },
): void {
  deps.log?.debug("lexical index read", {
    wiki: stats.wiki_id,
    version: stats.version,
    log_from: stats.log_from,
    from_version: read.from,
    changed_pages: read.pages,
    stats_chunks: stats.n,
    // As the statement gave them: an array (text here was a driver's unparsed array).
    terms: stats.terms,
    chunks: index.size - index.dead,
    postings: index.postings,
  });
}

/** Records an index's size, then drops least recently searched wikis until all fit. */
function account(deps: LexicalDeps, cache: Cache, entry: Entry, index: LexicalIndex): void {
  const max = deps.config.searchIndexBytes;
  cache.bytes -= entry.bytes;
  entry.bytes = indexBytes(index);
  entry.index = index;
  cache.bytes += entry.bytes;
  if (entry.bytes > max) {
    cache.bytes -= entry.bytes;
    Object.assign(entry, { index: null, bytes: 0, tooLarge: true });
    return;
  }
  for (const [wikiId, other] of cache.wikis) {
    if (cache.bytes <= max) break;
    if (other === entry || !other.index) continue;
    cache.bytes -= other.bytes;
    cache.wikis.delete(wikiId);
  }
}

/**
 * Reads a wiki's postings into a new index at `version`. The version was read before any of
 * these statements, so what they read is that version or newer; a chunk written meanwhile
 * belongs to a page logged after `version`, which the next search reloads.
 */
export async function buildIndex(
  db: Db,
  wikiId: string,
  version: number,
): Promise<LexicalIndex | null> {
  const chunks = await selectIndexedChunks(db, wikiId);
  const index = emptyIndex(wikiId, version, chunks.length);
  const local = new Map<number, number>();
  let base = Infinity;
  let top = -Infinity;
  for (const c of chunks) {
    local.set(c.id, addChunk(index, c.id, c.page_id, c.length));
    base = Math.min(base, c.id);
    top = Math.max(top, c.id);
  }
  if (top - base >= 2 ** 31) return null; // ids too far apart to pack: the SQL leg serves it
  let after = "";
  for (;;) {
    const upto = await selectTermAfter(db, wikiId, after, TERMS_PER_READ);
    if (upto === null) break;
    for (const { term, postings } of await selectPackedPostings(db, wikiId, after, upto, base)) {
      const bytes = Uint8Array.fromBase64(postings);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      // A chunk missing from `local` was written after the chunks were read: reloaded later.
      addPackedPostings(
        index,
        term,
        bytes.byteLength / 8,
        (i) => local.get(base + view.getUint32(8 * i)) ?? -1,
        (i) => view.getUint16(8 * i + 4),
        (i) => view.getUint16(8 * i + 6),
      );
    }
    after = upto;
  }
  trimBlock(index);
  return index;
}

/** Bytes and postings held for each wiki of a database (for the benchmark's report). */
export function lexicalCacheSize(db: Db): { wiki: string; bytes: number; postings: number }[] {
  return [...cacheOf(db).wikis].filter(([, e]) => e.index).map(([wiki, e]) => ({
    wiki,
    bytes: e.bytes,
    postings: e.index!.postings,
  }));
}

/**
 * What this process's index cache holds for a database and how its searches were answered
 * since the process started (`/readyz`): the share answered with the SQL leg says whether
 * `SEARCH_INDEX_MB` holds the wikis searched.
 */
export function lexicalCacheReport(db: Db): {
  wikis: number;
  bytes: number;
  searches_in_memory: number;
  searches_with_sql: number;
} {
  const cache = cacheOf(db);
  return {
    wikis: [...cache.wikis.values()].filter((e) => e.index).length,
    bytes: cache.bytes,
    searches_in_memory: cache.answered.memory,
    searches_with_sql: cache.answered.sql,
  };
}

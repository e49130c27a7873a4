import { z } from "zod";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { boundedMemo } from "../lib/bounded_memo.ts";
import { decodeCursor, encodeCursor } from "../lib/cursor.ts";
import { requireWellFormed } from "../lib/well_formed.ts";
import { pathKey } from "../markdown/paths.ts";
import { versionPageUrl } from "../lib/urls.ts";
import { askedVersion, resolveVersions, type Version, versionParam } from "../versions/versions.ts";
import { overlayRow, overlayTermsHeld, versionSharesPage } from "./version_index.ts";
import { EmbedderError } from "../lib/embedder.ts";
import { BM25, CANDIDATES, fuse, lexicalWeight, storesVectors } from "./fusion.ts";
import { lexicalTopK } from "./lexical_cache.ts";
import { buildSnippet } from "./snippet.ts";
import { withJoinedPairs } from "./joined_pairs.ts";
import { relatedStems } from "../text/related_forms.ts";
import { asksForDefault, statesDefault } from "./asks_default.ts";
import { namedSettingFirst } from "./named_setting.ts";
import { writtenNameFirst } from "./written_name.ts";
import { tradeFirst } from "./first_place.ts";
import { contentTerms, holdsInOrder, isIdentifier, tokenize } from "../text/terms.ts";
import {
  type ChunkCandidate,
  type ChunkHit,
  countChunks,
  selectChunkCandidates,
  selectNearestExact,
  selectNearestIndexed,
  selectTermEvidence,
} from "./store.ts";
import { type Db } from "../db/db.ts";
import { sourceFreshness, sourceFreshnessFields } from "../sources/freshness.ts";
import { forReads } from "../db/replicas.ts";
import { selectWikis } from "../wikis/mod.ts";

/** Longest query accepted, in characters. */
export const MAX_QUERY_CHARS = 1000;

/** Wikis up to this many chunks are searched by exact scan; larger ones by HNSW. */
export const EXACT_SCAN_LIMIT = 20_000;

/** Input of a search (MCP `search`, REST search routes); the wiki comes from the caller. */
export const searchInput = z.object({
  query: z.string().describe(
    "What to look for, in words: a question, a name or a few keywords. Exact page titles rank first.",
  ),
  limit: z.number().int().min(1).max(50).default(10).describe("How many pages to return (1-50)"),
  cursor: z.string().max(200).optional().describe(
    "The next_cursor of a previous search, for more results",
  ),
  version: versionParam,
});

/** One page found by a search. */
export const searchResultSchema = z.object({
  wiki: z.string(),
  page: z.string().describe("The page path, accepted by get_page and neighbors"),
  title: z.string(),
  section: z.string().nullable().describe("The heading path of the best matching passage"),
  snippet: z.string().describe(
    "The best matching passage as plain text, cut at whole words: a code block's lines one a " +
      "line, a table row read with its header, inline code holding < or > kept in backticks; no " +
      "word of it is altered",
  ),
  matches: z.array(z.object({ start: z.number().int(), end: z.number().int() })).describe(
    "Where the query's words stand in `snippet`, as character offsets",
  ),
  score: z.number(),
  url: z.string(),
  revision: z.number().int(),
  updated_at: z.string(),
  version: z.string().optional().describe(
    "The version of the wiki the page was found in (absent: the live pages)",
  ),
  ...sourceFreshnessFields,
});

/** A page of search results. */
export const searchOutputSchema = z.object({
  results: z.array(searchResultSchema),
  next_cursor: z.string().nullable(),
});
export type SearchOutput = z.infer<typeof searchOutputSchema>;

/** Which legs run: both (production), or one alone (evaluation, comparisons). */
export type SearchMode = "hybrid" | "lexical" | "vector";

/** A ranked page with its best chunk. */
export type RankedPage = { page_id: number; path: string; chunk_id: number; score: number };

type SearchDeps = Pick<Deps, "db" | "embedder" | "log" | "config" | "reads" | "visibilitySeen">;

/**
 * Searches one or more wikis: BM25 and vector legs over chunks, fused, grouped to pages
 * (a page's best chunk gives its section and snippet), exact title or path matches first.
 */
export async function searchWikis(
  deps: SearchDeps,
  wikiIds: string[],
  input: z.input<typeof searchInput>,
): Promise<SearchOutput> {
  // Statistics, candidates and texts all tolerate a moment of lag: a replica's, if any.
  deps = forReads(deps);
  const { query, limit, cursor, version } = parseSearchInput(input);
  if (wikiIds.length === 0) throw new AppError("bad_request", "Name a wiki to search");
  const found = new Set<string>();
  // A version named, and the wikis' defaults, come with the search's statistics.
  const asked = askedVersion(wikiIds, version);
  const versions = new Map<string, Version>();
  const { hits, rows } = await rankChunks(deps, wikiIds, query, "hybrid", {
    found,
    versions,
    defaults: version === undefined,
    asked,
  });
  // A wiki without statistics (no chunks yet) still refuses a version it does not have.
  if (asked !== null && wikiIds.some((id) => !versions.has(id))) {
    for (const [id, v] of await resolveVersions(deps.db, wikiIds, asked)) versions.set(id, v);
  }
  await requireWikis(deps, wikiIds, found);
  const ranked = bestPerPage(hits);
  const offset = cursor ? offsetOf(cursor) : 0;
  const page = await withTexts(deps, ranked.slice(offset, offset + limit), rows);
  return {
    results: page.map((r) => {
      const d = rows.get(r.chunk_id)!;
      const name = versions.get(d.wiki_id)?.name ?? null;
      const url = versionPageUrl(deps.config.baseUrl, d.wiki_id, name, d.path);
      const snippet = buildSnippet(d.text!, query);
      return {
        wiki: d.wiki_id,
        page: d.path,
        title: d.title,
        section: d.heading_path.length > 0 ? d.heading_path.join(" > ") : null,
        snippet: snippet.text,
        matches: snippet.matches,
        score: Math.round(r.score * 10_000) / 10_000,
        url: d.anchor ? `${url}#${d.anchor}` : url,
        revision: d.revision,
        updated_at: d.updated_at.toISOString(),
        ...(name ? { version: name } : {}),
        // Pages of spaces synced from Git: the commit of this revision and the last sync.
        ...sourceFreshness(d),
      };
    }),
    next_cursor: offset + limit < ranked.length ? encodeCursor(`o:${offset + limit}`) : null,
  };
}

/** Validates a search's input: a query of 1 to `MAX_QUERY_CHARS` characters. */
export function parseSearchInput(input: z.input<typeof searchInput>) {
  const parsed = searchInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError("bad_request", `Search "${issue.path.join(".")}": ${issue.message}`);
  }
  const query = parsed.data.query.trim();
  requireWellFormed("The search query", query);
  if (!query) throw new AppError("bad_request", "The search query is empty: say what to look for");
  if (query.length > MAX_QUERY_CHARS) {
    throw new AppError(
      "bad_request",
      `The search query is over ${MAX_QUERY_CHARS} characters: shorten it`,
    );
  }
  return { ...parsed.data, query };
}

/**
 * The whole rows of the ranked entries' chunks that `rows` lacks the text of (search: a page
 * whose best chunk is beyond the texts read with the ranking, a later page of results, a title
 * match found by title alone; ask: a chunk re-scoring lifted into its best 40), read in one
 * statement, then the entries that have one: a chunk deleted since the ranking read its index
 * has none (the next search ranks without it).
 */
export async function withTexts<T extends { chunk_id: number }>(
  deps: SearchDeps,
  ranked: T[],
  rows: Map<number, ChunkCandidate>,
): Promise<T[]> {
  const missing = ranked.map((r) => r.chunk_id).filter((id) =>
    (rows.get(id)?.text ?? null) === null
  );
  if (missing.length === 0) return ranked;
  for (const d of await selectChunkCandidates(deps.db, missing, missing, null)) {
    rows.set(d.chunk_id, d);
  }
  return ranked.filter((r) => (rows.get(r.chunk_id)?.text ?? null) !== null);
}

/**
 * Both legs (as `mode` says), fused, before re-scoring; `found` as in `lexicalTopK`. A chunk of
 * the in-memory lexical leg keeps its page (`page_id`). An embedder without stored vectors
 * (`storesVectors`: the offline one) has no vector leg: hybrid is the lexical leg, its scores at
 * the lexical share they always had (`ask`'s verdict was fitted on them). The lexical leg reads
 * the query with its phrasal verbs also written as one word (`withJoinedPairs`: "back up" finds
 * "Backup").
 */
async function fusedChunks(
  deps: SearchDeps,
  wikiIds: string[],
  query: string,
  mode: SearchMode,
  options: RankOptions,
  versions: Map<string, Version>,
): Promise<ChunkHit[]> {
  const [lexical, vector] = await Promise.all([
    mode === "vector" ? [] : lexicalTopK(
      deps,
      wikiIds,
      withJoinedPairs(query),
      BM25,
      CANDIDATES,
      options.found,
      versions,
      options.defaults,
      options.asked ?? null,
    ),
    mode === "lexical" ? [] : nearestChunks(deps, wikiIds, query),
  ]);
  const weight = mode === "lexical" ? 1 : mode === "vector" ? 0 : lexicalWeight(deps.embedder);
  return fuse(lexical, mode === "hybrid" ? aboveBackground(vector, lexical) : vector, weight);
}

/** How many of the best chunks are re-scored by where the query's words stand in them. */
const RESCORE_DEPTH = 30;
/** The score share kept by a chunk that matches the query only inside links. */
const LINK_ONLY_SHARE = 0.5;
/** Added to a chunk whose page title or own heading the query names in full. */
const NAMED_BONUS = 0.3;

/** What re-scoring reads of a chunk: its page's title, its headings and its text. */
type RescoreFields = { title: string; heading_path: string[]; text: string | null };

/**
 * Re-scores the best chunks by where the query's words stand (fused scores are in [0, 1]);
 * `details` holds the text of the best `RESCORE_DEPTH` chunks (a chunk without is kept as is):
 *
 * - Link text and link targets are not the topic: a chunk whose query words stand only
 *   inside `[[…]]` or `[…](…)` (a page that just links to "Tokens › Rate limits") keeps half
 *   its score, so the section it links to ranks above it.
 * - A query that names a page's title or a section's own heading in full ("how do tokens
 *   work" names "Tokens"; "rate limits" names "Tokens › Rate limits") is about that page or
 *   section: its chunks gain `NAMED_BONUS`. Word rarity cannot see this — the topic word of a
 *   page is in most of its chunks, and often all over a small wiki, so its IDF is low.
 */
function rescore(
  hits: ChunkHit[],
  details: Map<number, RescoreFields>,
  terms: Set<string>,
): ChunkHit[] {
  let changed = false;
  const rescored = hits.map((h, i) => {
    const d = i < RESCORE_DEPTH ? details.get(h.chunk_id) : undefined;
    if (!d || d.text === null) return h;
    let score = h.score;
    if (isLinkOnly(d as RescoreFields & { text: string }, terms)) score *= LINK_ONLY_SHARE;
    if (namesTopic(d, terms)) score += NAMED_BONUS;
    if (score === h.score) return h;
    changed = true;
    return { ...h, score };
  });
  if (!changed) return hits;
  return rescored.sort((a, b) => b.score - a.score || a.chunk_id - b.chunk_id);
}

/** How close to a page's best chunk another of its chunks must score to take its place. */
const OWN_HEADING_SHARE = 0.8;

/**
 * How many query words a chunk's own heading holds beyond its page's title: the last heading of
 * its path; none for the page's lead (its heading is the title). Every chunk of a page carries
 * the title and its ancestors' headings in its heading text, so these are what tell a page's
 * sections apart.
 */
function ownHeadingWords(d: RescoreFields, terms: Set<string>, withTitle = false): number {
  const own = d.heading_path.at(-1);
  if (own === undefined || own.trim() === d.title.trim()) return 0;
  const title = new Set(withTitle ? [] : contentWords(d.title));
  const held = new Set<string>();
  for (const token of own.split(/\s+/)) {
    const words = contentWords(token);
    // A setting's or tool's name (`get_page`) is held only whole and in order, as `namesTopic`
    // has it: "How does a page get its title?" does not name `get_page`.
    if (isIdentifier(token.replace(/^\W+|\W+$/g, "")) && !holdsInOrder([...terms], words)) continue;
    for (const w of words) if (terms.has(w) && !title.has(w)) held.add(w);
  }
  return held.size;
}

/**
 * Within a page, the section whose own heading names more of the query comes first: among the
 * best `RESCORE_DEPTH` chunks, a page's best chunk trades places (and scores) with another chunk
 * of the same page scoring at least `OWN_HEADING_SHARE` of it whose own heading holds more of
 * the query's words (`ownHeadingWords`). BM25 weighs every heading of a chunk's path alike, so a
 * subsection inherits its parent's words ("promtool check metrics › Flags" for "lint the
 * metrics … using promtool") and a sibling wins on body words alone ("Symptoms" over "Option 2:
 * Configure SELinux Policy (Recommended)" for "what is the recommended fix"). Scores only trade
 * places, so the pages keep their order.
 */
function ownHeadingFirst(
  hits: ChunkHit[],
  details: Map<number, RescoreFields & { page_id: number }>,
  terms: Set<string>,
): ChunkHit[] {
  const out = [...hits];
  const depth = Math.min(out.length, RESCORE_DEPTH);
  const seen = new Set<number>();
  for (let i = 0; i < depth; i++) {
    const top = details.get(out[i]!.chunk_id);
    if (!top || top.text === null || seen.has(top.page_id)) continue;
    seen.add(top.page_id);
    let best = -1;
    let most = headingRank(top, terms, false);
    for (let j = i + 1; j < depth && out[j]!.score >= OWN_HEADING_SHARE * out[i]!.score; j++) {
      const other = details.get(out[j]!.chunk_id);
      if (!other || other.text === null || other.page_id !== top.page_id) continue;
      // A subsection of the best chunk's own section is compared with it on every word of its
      // own heading, the title's too: "Configure NGINX" under "NGINX", for "How do I configure
      // NGINX as the reverse proxy?", on a page titled "Configuring an HTTP Server".
      const under = isUnder(other.heading_path, top.heading_path);
      const held = headingRank(other, terms, under);
      const mine = under ? headingRank(top, terms, true) : most;
      if (held > Math.max(most, mine)) [best, most] = [j, held];
    }
    if (best < 0) continue;
    const [a, b] = [out[i]!, out[best]!];
    out[i] = { ...b, score: a.score };
    out[best] = { ...a, score: b.score };
  }
  return out;
}

/**
 * How a chunk's own heading ranks against its page's others for the query: one the query names
 * whole (two content words or more, every one the query's, the title's words too: "Celery
 * Worker" for "How do I run the Celery worker as a systemd service?" on a page titled "Deploying
 * Nautobot: Web Service and Workers") above any it names in part, then by the words it holds
 * (`ownHeadingWords`).
 */
function headingRank(d: RescoreFields, terms: Set<string>, withTitle: boolean): number {
  return (namedWhole(d, terms) ? NAMED_WHOLE : 0) + ownHeadingWords(d, terms, withTitle);
}

/** Ranks a heading the query names whole above every other (`headingRank`). */
const NAMED_WHOLE = 100;

function namedWhole(d: RescoreFields, terms: Set<string>): boolean {
  const own = d.heading_path.at(-1);
  if (own === undefined || own.trim() === d.title.trim()) return false;
  const words = contentWords(own);
  if (words.length < 2) return false;
  return isIdentifier(own.trim().replace(/^\W+|\W+$/g, ""))
    ? holdsInOrder([...terms], words)
    : words.every((w) => terms.has(w));
}

/** Whether a heading path lies strictly under another (a subsection of its section). */
function isUnder(path: string[], parent: string[]): boolean {
  return path.length > parent.length && parent.every((h, i) => path[i] === h);
}

/** How close to the best chunk a chunk stating a default must score to take its place. */
const DEFAULT_SHARE = 0.7;

/**
 * A question asking for a default ("by default", "out of the box", "if we don't set one":
 * `asksForDefault`) is answered where a default is stated: when the best chunk states none, the
 * best chunk of another page that does (`statesDefault`) among the best `RESCORE_DEPTH`, scoring
 * at least `DEFAULT_SHARE` of it, trades places (and scores) with it (`tradeFirst`). Reference sections state a
 * setting's default ("Defaults to 10 minutes", `default = 100000`) where prose about the same
 * thing on another page does not, and wins on the question's story words: "How many exemplars
 * can the in-memory exemplar store hold by default?" found the feature flag's page first, not
 * the `<exemplars>` block's `default = 100000`. Within a page the sections keep their order
 * (`ownHeadingFirst` chose among them): a page's lead says what its subsection's example gives the
 * default of, and `ask` answers from the two together.
 */
function defaultFirst(
  hits: ChunkHit[],
  details: Map<number, RescoreFields & { page_id: number }>,
  query: string,
): ChunkHit[] {
  if (hits.length < 2 || !asksForDefault(query)) return hits;
  const states = (h: ChunkHit) => statesDefault(details.get(h.chunk_id)?.text ?? "");
  const page = (h: ChunkHit) => details.get(h.chunk_id)?.page_id;
  const top = page(hits[0]!);
  if (top === undefined || states(hits[0]!)) return hits;
  return tradeFirst(hits, RESCORE_DEPTH, DEFAULT_SHARE, (h) => states(h) && page(h) !== top);
}

/** Whether the query's words stand in the chunk only inside link syntax. */
function isLinkOnly(d: RescoreFields & { text: string }, terms: Set<string>): boolean {
  if (!/\[\[|\]\(/.test(d.text)) return false;
  const own = contentTerms(
    `${d.title} ${d.heading_path.join(" ")} ${
      d.text.replace(/\[\[[^\]]*\]\]|\[[^\]]*\]\([^)]*\)/g, " ")
    }`,
  );
  const all = contentTerms(d.text);
  return [...terms].some((t) => all.has(t)) && ![...terms].some((t) => own.has(t));
}

/**
 * Whether the query names the page's title or the chunk's own heading: every content word of
 * it is in the query, and they are at least half of the query's content words (a heading
 * such as "What the service does" is not named by every question that says "service"). A heading
 * that is a setting's name (`isIdentifier`: `LOG_STORE`) is named by a query holding all its
 * parts in their order, however many other words it has ("Where are step logs stored?").
 */
function namesTopic(d: RescoreFields, terms: Set<string>): boolean {
  return [d.title, d.heading_path.at(-1) ?? ""].some((field, i) => {
    const words = contentWords(field);
    return words.length > 0 && words.every((w) => terms.has(w)) &&
      (2 * words.length >= terms.size ||
        (i === 1 && words.length >= 2 && isIdentifier(field) && holdsInOrder([...terms], words)));
  });
}

/**
 * The content words of a title or heading, remembered across searches for 20,000 fields of up
 * to 200 characters (`boundedMemo`): each search weighs the titles and headings of its best 30
 * chunks, mostly ones it has seen before.
 */
const contentWords: (field: string) => string[] = boundedMemo(
  (field) => [...contentTerms(field).keys()],
  20_000,
  200,
);

/**
 * The relevance floor of hybrid search: a chunk needs real evidence. A lexical match is
 * evidence; a vector hit without one must stand clearly above the wiki's background — in the
 * upper half between the median similarity of the nearest chunks and the best one. Without
 * it, every chunk of a small wiki is "found" (the vector leg scores them all).
 */
export function aboveBackground(vector: ChunkHit[], lexical: ChunkHit[]): ChunkHit[] {
  if (vector.length < 4) return vector;
  const matched = new Set(lexical.map((h) => h.chunk_id));
  const scores = vector.map((h) => h.score).sort((a, b) => a - b);
  const median = scores[Math.floor(scores.length / 2)]!;
  const floor = median + FLOOR_SHARE * (scores[scores.length - 1]! - median);
  return vector.filter((h) => matched.has(h.chunk_id) || h.score >= floor);
}

/** Where the floor stands between the background (median) and the best similarity. */
const FLOOR_SHARE = 0.5;

/** The ranking behind every search, up to `CANDIDATES` pages, best first. */
export async function rankPages(
  deps: SearchDeps,
  wikiIds: string[],
  query: string,
  mode: SearchMode,
): Promise<RankedPage[]> {
  const { hits, rows } = await rankChunks(deps, wikiIds, query, mode, { paths: true });
  return bestPerPage(hits).map((r) => ({ ...r, path: rows.get(r.chunk_id)!.path }));
}

/** A ranked chunk with its page. */
export type RankedChunk = { chunk_id: number; page_id: number; score: number };

/** How a ranking is read; see `rankChunks`. */
export type RankOptions = {
  /** Collects the wikis whose statistics were read (`lexicalTopK`). */
  found?: Set<string>;
  /** Reads every candidate's page row (with its path), as `rankPages` returns them. */
  paths?: boolean;
  /** How many of the best fused chunks come with their text (ask quotes from its best 40). */
  texts?: number;
  /**
   * The wikis searched in a version of them (src/search/version_index.ts); with `defaults`,
   * the lexical leg adds each other wiki's default version to it.
   */
  versions?: Map<string, Version>;
  defaults?: boolean;
  /** A version name the lexical leg looks up with its statistics and adds to `versions`. */
  asked?: string | null;
};

/**
 * The one chunk ranking behind search (`searchWikis`, `rankPages`: grouped to pages by
 * `bestPerPage`) and `ask` (its passages), best first, with what it read of the candidate
 * chunks (`rows`: page, place and source freshness, with the text of the best `RESCORE_DEPTH`
 * or `texts`). Its rules, in order:
 *
 * 1. both legs, as `mode` says, fused (`fusedChunks`), above the relevance floor;
 * 2. the best chunks re-scored by where the query's words stand (`rescore`: link-only chunks
 *    halved, a named title or heading lifted), then within each page the section whose own
 *    heading holds more of the query first (`ownHeadingFirst`), and the section of a setting the
 *    query names word for word (`namedSettingFirst`), then, for a question asking for a default,
 *    a chunk stating one first (`defaultFirst`);
 * 3. pages whose title, path or last path segment equals the query first (`exactFirst`).
 *
 * After the lexical leg's statement, one more reads the texts re-scoring weighs, the pages the
 * in-memory index did not give (a vector hit's; every candidate's with `paths`) and the exact
 * title matches. A chunk deleted since its index was read has no row, and drops out.
 */
export async function rankChunks(
  deps: SearchDeps,
  wikiIds: string[],
  query: string,
  mode: SearchMode,
  options: RankOptions = {},
): Promise<{ hits: RankedChunk[]; rows: Map<number, ChunkCandidate> }> {
  const versions = options.versions ?? new Map<string, Version>();
  const fused = await fusedChunks(deps, wikiIds, query, mode, options, versions);
  // The query's content words, and their related forms for re-scoring (`relatedStems`).
  const content = contentTerms(query);
  const terms = mode === "vector"
    ? new Set<string>()
    : new Set([...content.keys(), ...relatedStems(content, tokenize(query)).keys()]);
  const depth = Math.max(terms.size > 0 ? RESCORE_DEPTH : 0, options.texts ?? 0);
  // A version's chunks of revisions the live pages no longer have come with their rows.
  const overlay = new Map<number, ChunkCandidate>();
  for (const h of fused) {
    const row = h.chunk_id < 0 ? overlayRow(deps.db, h.chunk_id) : undefined;
    if (row) overlay.set(h.chunk_id, row);
  }
  const textIds = fused.slice(0, depth).map((h) => h.chunk_id).filter((id) => id > 0);
  const text = new Set(textIds);
  // The rows read: the best chunks' (with their text), and the page of any chunk whose index
  // entry does not carry it (or of every chunk, when the caller wants paths).
  const needsRow = (h: { chunk_id: number; page_id?: number }) =>
    text.has(h.chunk_id) || options.paths === true || h.page_id === undefined;
  const unplaced = fused.filter((h) => h.chunk_id > 0 && needsRow(h) && !text.has(h.chunk_id))
    .map((h) => h.chunk_id);
  const read = await selectChunkCandidates(deps.db, unplaced, textIds, {
    wikiIds,
    query,
    key: pathKey(query),
  });
  // In a version, a live chunk counts only if the version pins its page at the live revision.
  const inScope = (r: { wiki_id: string | null; page_id: number; chunk_id: number }) => {
    const version = r.wiki_id === null ? undefined : versions.get(r.wiki_id);
    return !version || r.chunk_id < 0 || versionSharesPage(deps.db, version.id, r.page_id);
  };
  const rows = new Map(
    read.filter((r) => r.exact === null && inScope(r)).map((r) => [r.chunk_id, r]),
  );
  for (const [id, row] of overlay) rows.set(id, row);
  const exact = read.filter((r) => r.exact !== null && r.chunk_id !== null && inScope(r))
    .sort((a, b) => a.exact! - b.exact!);
  const hits: RankedChunk[] = [];
  const ranked = terms.size > 0
    ? writtenNameFirst(
      defaultFirst(
        namedSettingFirst(
          ownHeadingFirst(rescore(fused, rows, terms), rows, terms),
          rows,
          query,
          RESCORE_DEPTH,
        ),
        rows,
        query,
      ),
      rows,
      query,
      RESCORE_DEPTH,
    )
    : fused;
  for (const hit of ranked) {
    const row = rows.get(hit.chunk_id);
    // A chunk whose row was asked for and is gone was deleted since its index was read.
    const pageId = row?.page_id ?? (needsRow(hit) ? undefined : hit.page_id);
    if (pageId !== undefined) {
      hits.push({ chunk_id: hit.chunk_id, page_id: pageId, score: hit.score });
    }
  }
  // An exact match's first chunk, when it ranks first without a row: its page and path.
  for (const e of exact) if (!rows.has(e.chunk_id)) rows.set(e.chunk_id, e);
  return { hits: exactFirst(hits, exact), rows };
}

/**
 * A page whose title, path or last path segment equals the query ranks first (in `exact`'s
 * order: title matches, then shorter paths), by its best chunk, or by its first chunk when no
 * chunk of it ranks, at a score of at least 1. Its other chunks keep their places.
 */
function exactFirst(
  hits: RankedChunk[],
  exact: { page_id: number; chunk_id: number }[],
): RankedChunk[] {
  if (exact.length === 0) return hits;
  const first = exact.map((e) => {
    const best = hits.find((h) => h.page_id === e.page_id) ??
      { chunk_id: e.chunk_id, page_id: e.page_id, score: 0 };
    return { ...best, score: Math.max(best.score, 1) };
  });
  const moved = new Set(first.map((f) => f.chunk_id));
  return [...first, ...hits.filter((h) => !moved.has(h.chunk_id))];
}

/** Each page's best chunk, pages in rank order, up to `CANDIDATES` pages. */
function bestPerPage(hits: RankedChunk[]): RankedChunk[] {
  const pages = new Set<number>();
  const best: RankedChunk[] = [];
  for (const hit of hits) {
    if (pages.has(hit.page_id)) continue;
    pages.add(hit.page_id);
    best.push(hit);
    if (best.length >= CANDIDATES) break;
  }
  return best;
}

/**
 * The vector leg: exact scan for small wikis, the HNSW index with iterative scans for large;
 * nothing for an embedder whose vectors are not stored.
 */
async function nearestChunks(
  deps: SearchDeps,
  wikiIds: string[],
  query: string,
): Promise<ChunkHit[]> {
  if (!storesVectors(deps.embedder)) return [];
  const vector = await embedQuery(deps, query);
  return vector ? await nearestTo(deps, wikiIds, vector) : [];
}

/**
 * The query's vector, or null when it has none: the embedder failed (search falls back to the
 * lexical leg) or the query has no words (`???`, an emoji), which embeds to the zero vector,
 * whose cosine distance to anything is NaN.
 */
async function embedQuery(deps: SearchDeps, query: string): Promise<Float32Array | null> {
  let vector: Float32Array;
  try {
    [vector] = await deps.embedder.embed([query]) as [Float32Array];
  } catch (error) {
    if (!(error instanceof EmbedderError)) throw error;
    deps.log.warn("search fell back to the lexical leg: the embedder failed", {
      error: error.message,
    });
    return null;
  }
  return vector.some((x) => x !== 0) ? vector : null;
}

/** The chunks nearest to a vector (only chunks with this embedder's vectors). */
async function nearestTo(
  deps: SearchDeps,
  wikiIds: string[],
  vector: Float32Array,
): Promise<ChunkHit[]> {
  if (await countChunks(deps.db, wikiIds) <= EXACT_SCAN_LIMIT) {
    return await selectNearestExact(deps.db, wikiIds, deps.embedder.id, vector, CANDIDATES);
  }
  return await selectNearestIndexed(
    deps.db,
    deps.embedder,
    wikiIds,
    deps.embedder.id,
    vector,
    CANDIDATES,
  );
}

/**
 * Fails unless every wiki exists. `known` are wikis already seen to exist (their search
 * statistics were read); only the others are looked up, usually none.
 */
async function requireWikis(deps: SearchDeps, wikiIds: string[], known: Set<string>) {
  const rest = wikiIds.filter((id) => !known.has(id));
  if (rest.length === 0) return;
  const found = new Set((await selectWikis(deps.db, rest)).map((w) => w.id));
  const unknown = rest.find((id) => !found.has(id));
  if (unknown !== undefined) throw new AppError("wiki_not_found", `Wiki "${unknown}" not found`);
}

function offsetOf(cursor: string): number {
  const position = decodeCursor(cursor);
  const m = /^o:(\d{1,4})$/.exec(position);
  if (!m) throw new AppError("bad_request", "This cursor belongs to another listing");
  return Number(m[1]);
}

/**
 * For each term of a query: its document frequency across the wikis, their chunk count, and
 * which of `chunkIds` hold it (the evidence behind `ask`'s verdict).
 */
export async function termEvidence(
  db: Db,
  wikiIds: string[],
  query: string,
  chunkIds: number[],
): Promise<{ term: string; df: number; n: number; chunks: number[] }[]> {
  const terms = await selectTermEvidence(db, wikiIds, query, chunkIds.filter((id) => id > 0));
  // A version's chunk of a revision the live pages no longer have holds its own terms.
  for (const id of chunkIds.filter((id) => id < 0)) {
    const held = overlayTermsHeld(db, id, terms.map((t) => t.term));
    for (const t of terms) {
      if (!held?.has(t.term)) continue;
      t.chunks.push(id);
      t.df = Math.max(t.df, 1);
    }
  }
  return terms;
}

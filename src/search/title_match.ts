/**
 * Search as you type over a wiki's titles and headings: each word of the query matches a word
 * of a title or heading exactly, as its beginning (a half-typed word: "reten" → "Retention"),
 * or, in words of five letters or more, with one typo (a letter added, left out or changed:
 * "configuraton" → "Configuration"). Exact words rank above prefixes, prefixes above typos,
 * so the exact match stays first. Pure and small: the titles and headings of one wiki are a
 * few thousand words, read from the store per request (`selectHeadings`).
 *
 * The full-text search (BM25 + vectors, `searchWikis`) is left as it is: its recall and
 * ranking are measured by the eval sets, and a typo-tolerant body index would change both.
 */

/** A title or a heading that may be offered, and where it leads. */
export type TitleEntry = { title: string; section: string | null; href: string; path: string };

/** An entry that matched, with its score (higher first). */
export type TitleMatch = TitleEntry & { score: number };

/** Words shorter than this are matched exactly or as a prefix, never with a typo. */
export const TYPO_MIN_LENGTH = 5;

const EXACT = 3;
const PREFIX = 2;
const TYPO = 1;

/** Lower-case words of a text, accents folded (`Réglage` → `reglage`). */
export function wordsOf(text: string): string[] {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
    .split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Whether `a` and `b` are at most one edit apart (insert, delete or substitute one letter). */
export function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** How well a query word matches a word of an entry: 3 exact, 2 prefix, 1 one typo, 0 not. */
export function wordScore(query: string, word: string): number {
  if (word === query) return EXACT;
  if (word.startsWith(query)) return PREFIX;
  if (query.length < TYPO_MIN_LENGTH) return 0;
  // The whole word with one typo, or its beginning with one (the reader is still typing).
  for (let length = query.length - 1; length <= query.length + 1; length++) {
    if (length > word.length) break;
    if (withinOneEdit(query, word.slice(0, length))) return TYPO;
  }
  return 0;
}

/** An entry's score for the query's words: every word must match; 0 when one does not. */
function entryScore(queryWords: string[], words: string[]): number {
  let total = 0;
  for (const q of queryWords) {
    let best = 0;
    for (const w of words) best = Math.max(best, wordScore(q, w));
    if (best === 0) return 0;
    total += best;
  }
  return total;
}

/**
 * The entries matching every word of `query`, best first: by score, then a page's title before
 * its headings, then the order given (the wiki's reading order). At most `limit`.
 */
export function matchTitles(entries: TitleEntry[], query: string, limit = 8): TitleMatch[] {
  const queryWords = wordsOf(query);
  if (queryWords.length === 0) return [];
  const found: (TitleMatch & { at: number })[] = [];
  entries.forEach((entry, at) => {
    const score = entryScore(queryWords, wordsOf(entry.section ?? entry.title));
    if (score > 0) found.push({ ...entry, score, at });
  });
  found.sort((a, b) =>
    b.score - a.score || Number(a.section !== null) - Number(b.section !== null) || a.at - b.at
  );
  return found.slice(0, limit).map(({ at: _, ...match }) => match);
}

/**
 * A half-typed or mistyped query made searchable: each word of five letters or more gets the
 * words of the wikis' text it could be (those it begins, or one edit away, at most three),
 * read with `wordsLike`, beside itself when the text holds it as written.
 */
export async function expandQuery(
  query: string,
  wordsLike: (word: string) => Promise<string[]>,
): Promise<string> {
  const out: string[] = [];
  for (const word of wordsOf(query).slice(0, 8)) {
    if (word.length < TYPO_MIN_LENGTH) {
      out.push(word);
      continue;
    }
    const found = await wordsLike(word);
    const near = found.filter((w) => w !== word && wordScore(word, w) > 0)
      .sort((a, b) => wordScore(word, b) - wordScore(word, a) || a.length - b.length)
      .slice(0, 3);
    out.push(...(found.includes(word) || near.length === 0 ? [word] : []), ...near);
  }
  return out.join(" ");
}

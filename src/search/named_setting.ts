import { isIdentifier, tokenize } from "../text/terms.ts";
import type { ChunkHit } from "./store.ts";
import { tradeFirst } from "./first_place.ts";

/**
 * What the rule reads of a ranked chunk: its page and its heading path (null for a candidate read
 * for its page alone, beyond the chunks whose text was read: `selectChunkCandidates`).
 */
type Placed = { page_id: number; heading_path: string[] | null };

/** How close to the best chunk a section of its page the query names must score to trade. */
const NAMED_SETTING_SHARE = 0.6;

/**
 * Within the best chunk's page, the section headed by a setting the query names word for word
 * (`namesSetting`) comes first: among the best `depth`, it trades places and scores with the best
 * chunk (`tradeFirst`) when that one's heading names none and it scores at least
 * `NAMED_SETTING_SHARE` of it. A reference page heads each setting's section with its name, and
 * twins differ by a letter their stems drop: "Which setting picks the OCR language, and what is
 * it if we never set it?" found `PAPERLESS_OCR_LANGUAGES=<list>` ("Additional OCR languages to
 * install", English and German named in its text, as in the question's story) before
 * `PAPERLESS_OCR_LANGUAGE=<lang>`, which says "Defaults to "eng"".
 */
export function namedSettingFirst(
  hits: ChunkHit[],
  details: Map<number, Placed>,
  query: string,
  depth: number,
): ChunkHit[] {
  const top = hits[0] && details.get(hits[0].chunk_id);
  if (!top) return hits;
  const page = hits.slice(0, depth).map((h) => details.get(h.chunk_id))
    .filter((d) => d?.page_id === top.page_id) as Placed[];
  const words = tokenize(query);
  const prefixes = sharedPrefixes(page);
  const names = (d: Placed) =>
    d.heading_path !== null && namesSetting(words, d.heading_path.at(-1), prefixes);
  if (names(top)) return hits;
  return tradeFirst(hits, depth, NAMED_SETTING_SHARE, (h) => {
    const other = details.get(h.chunk_id);
    return other?.page_id === top.page_id && names(other);
  });
}

/**
 * The parts of the setting a heading names (`PAPERLESS_OCR_LANGUAGE=<lang>` → `paperless`,
 * `ocr`, `language`; the form of its value aside), or null for a heading that is not one name.
 */
export function settingParts(heading: string | undefined): string[] | null {
  const name = (heading ?? "").trim().replace(/^`|`$/g, "").split("=")[0]!;
  if (!isIdentifier(name)) return null;
  return name.toLowerCase().replace(/^-+/, "").split(/[_.-]+/);
}

/**
 * Whether the query says the setting's name word for word: its parts, after a prefix its
 * page's other settings share (the product's: `PAPERLESS_`, `WOODPECKER_`), stand in a row among
 * the query's words as written, two of them at least (one word, "port", is in too many
 * questions to name `PAPERLESS_PORT`).
 */
export function namesSetting(
  words: string[],
  heading: string | undefined,
  prefixes: Set<string>,
): boolean {
  const parts = settingParts(heading);
  if (!parts) return false;
  const own = prefixes.has(parts[0]!) ? parts.slice(1) : parts;
  if (own.length < 2) return false;
  return words.some((_, i) => own.every((p, k) => words[i + k] === p));
}

/** The first parts two settings of a page or more share: the product's prefix. */
function sharedPrefixes(page: Placed[]): Set<string> {
  const firsts = new Map<string, number>();
  for (const d of page) {
    const first = settingParts(d.heading_path?.at(-1))?.[0];
    if (first !== undefined) firsts.set(first, (firsts.get(first) ?? 0) + 1);
  }
  return new Set([...firsts].filter(([, n]) => n >= 2).map(([p]) => p));
}

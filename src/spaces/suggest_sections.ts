import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { searchWikis } from "../search/search_wikis.ts";
import { selectWordsLike } from "../search/mod.ts";
import { expandQuery, wordsOf } from "../search/title_match.ts";
import { relativeUrl } from "../kit/web/space_urls.ts";

/** A section offered as you type: its page, heading, link and clean snippet, and its wiki. */
export type SectionSuggestion = {
  title: string;
  section: string | null;
  href: string;
  /** The passage that matched, as plain text (`buildSnippet`: no `[[…]]`, fences or pipes). */
  snippet: string;
  wiki: string;
};

/**
 * The best sections for a half-typed query in these wikis, by their own hybrid search: only
 * results that hold one of the words (a half-typed word matches nothing by meaning), each with
 * the same snippet search gives. A query search refuses (too long, malformed) suggests nothing.
 */
export async function suggestSections(
  deps: Pick<Deps, "db" | "embedder" | "log" | "config">,
  wikiIds: string[],
  query: string,
  limit = 8,
): Promise<SectionSuggestion[]> {
  try {
    const found = await sectionsHolding(deps, wikiIds, query, limit);
    if (found.length >= limit / 2) return found;
    // Few sections hold the words as typed: a word half typed ("reten") or mistyped
    // ("configuraton") also stands for the words of the text it could be, searched after.
    const expanded = await expandQuery(query, (w) => selectWordsLike(deps.db, wikiIds, w));
    if (expanded === wordsOf(query).join(" ")) return found;
    const seen = new Set(found.map((s) => s.href));
    const more = (await sectionsHolding(deps, wikiIds, expanded, limit))
      .filter((s) => !seen.has(s.href));
    return [...found, ...more].slice(0, limit);
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 400) throw error;
    return [];
  }
}

/** The best sections for `query` that hold one of its words. */
async function sectionsHolding(
  deps: Pick<Deps, "db" | "embedder" | "log" | "config">,
  wikiIds: string[],
  query: string,
  limit: number,
): Promise<SectionSuggestion[]> {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const found = await searchWikis(deps, wikiIds, { query, limit });
  return found.results
    .filter((r) =>
      words.some((w) => `${r.title} ${r.section ?? ""} ${r.snippet}`.toLowerCase().includes(w))
    )
    .map((r) => ({
      title: r.title,
      section: r.section === r.title ? null : r.section,
      href: relativeUrl(r.url, deps.config.baseUrl),
      snippet: r.snippet,
      wiki: r.wiki,
    }));
}

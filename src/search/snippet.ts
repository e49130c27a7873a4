import { plainText, splitSentences } from "../ask/sentences.ts";
import { contentTerms, stem, STOPWORDS, tokenize } from "./terms.ts";

/** A search snippet: plain text, and where the query's words stand in it. */
export type Snippet = { text: string; matches: { start: number; end: number }[] };

/** Words a snippet shows. */
const WINDOW_WORDS = 40;

/** Markers of a match in the text form (MCP): never markdown, rarely in a wiki's text. */
export const MARK_OPEN = "⟦";
export const MARK_CLOSE = "⟧";

/**
 * Builds a snippet from a chunk's markdown ourselves: rendered to plain text (emphasis, code
 * marks and link syntax go; every word, placeholder and `<…>` stays), cut at whole words to
 * the `WINDOW_WORDS` that hold the most distinct query terms, with the matched words' offsets.
 */
export function buildSnippet(markdown: string, query: string): Snippet {
  const plain = splitSentences(markdown).filter((s) => s.kind !== "markup")
    .map((s) => plainText(s)).filter(Boolean).join(" ");
  const terms = new Set(contentTerms(query).keys());
  const words = [...plain.matchAll(/\S+/g)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    hits: tokenize(m[0]).filter((t) => !STOPWORDS.has(t)).map(stem).filter((t) => terms.has(t)),
  }));
  if (words.length === 0) return { text: "", matches: [] };
  let from = 0;
  let bestScore = -1;
  for (let i = 0; i < Math.max(1, words.length - WINDOW_WORDS + 1); i++) {
    const inWindow = words.slice(i, i + WINDOW_WORDS);
    const distinct = new Set(inWindow.flatMap((w) => w.hits)).size;
    const score = distinct * 100 + inWindow.filter((w) => w.hits.length > 0).length;
    if (score > bestScore) [bestScore, from] = [score, i];
  }
  const shown = words.slice(from, from + WINDOW_WORDS);
  const cutStart = shown[0]!.start;
  const lead = from > 0 ? "… " : "";
  const tail = from + WINDOW_WORDS < words.length ? " …" : "";
  const text = lead + plain.slice(cutStart, shown[shown.length - 1]!.end) + tail;
  // Within a word, only the runs of letters and digits that match: `fetch(id)` marks `fetch`,
  // `/account/apps` marks `account` and `apps`, `"token";q=1200` marks `token`.
  const matches = shown.filter((w) => w.hits.length > 0).flatMap((w) =>
    [...plain.slice(w.start, w.end).matchAll(/[\p{L}\p{N}\p{M}]+/gu)]
      .filter((run) => tokenize(run[0]).some((t) => !STOPWORDS.has(t) && terms.has(stem(t))))
      .map((run) => ({
        start: lead.length + w.start - cutStart + run.index,
        end: lead.length + w.start - cutStart + run.index + run[0].length,
      }))
  );
  return { text, matches };
}

/** The text form of a snippet: each match between `⟦` and `⟧`. */
export function markSnippet(snippet: Snippet): string {
  let out = "";
  let at = 0;
  for (const m of snippet.matches) {
    out += snippet.text.slice(at, m.start) + MARK_OPEN + snippet.text.slice(m.start, m.end) +
      MARK_CLOSE;
    at = m.end;
  }
  return out + snippet.text.slice(at);
}

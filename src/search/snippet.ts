import { boundedMemo } from "../lib/bounded_memo.ts";
import { plainText, type Sentence, splitSentences } from "../text/sentences.ts";
import { unitMarkdown } from "../text/unit_markdown.ts";
import { contentTerms, stem, STOPWORDS, tokenize } from "../text/terms.ts";

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
  const plain = snippetText(markdown);
  const terms = new Set(contentTerms(query).keys());
  const words: { start: number; end: number; hits: string[] }[] = [];
  for (const m of plain.matchAll(/\S+/g)) {
    const all = termsOfWord(m[0]);
    const hits = all.some((t) => terms.has(t)) ? all.filter((t) => terms.has(t)) : NO_HITS;
    words.push({ start: m.index, end: m.index + m[0].length, hits });
  }
  if (words.length === 0) return { text: "", matches: [] };
  const from = bestWindow(words.map((w) => w.hits));
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

const NO_HITS: string[] = [];

/**
 * The stemmed content terms of a word of a snippet's text (split at white space), remembered
 * across searches for 50,000 words (`boundedMemo`): a wiki's texts repeat the same words, and
 * tokenizing and stemming each word of ten chunks was most of a search's snippet work.
 */
const termsOfWord: (word: string) => string[] = boundedMemo((word) => {
  const terms = tokenize(word).filter((t) => !STOPWORDS.has(t)).map(stem);
  return terms.length === 0 ? NO_HITS : terms;
}, 50_000);

/**
 * Where the window of `WINDOW_WORDS` words starts that holds the most distinct query terms, then
 * the most words with a match; the first such window. Slides once over the words, keeping each
 * term's count in the window (a search builds ten snippets of chunks of hundreds of words).
 */
function bestWindow(hits: string[][]): number {
  const counts = new Map<string, number>();
  let matched = 0;
  const enter = (h: string[]) => {
    if (h.length > 0) matched++;
    for (const t of h) counts.set(t, (counts.get(t) ?? 0) + 1);
  };
  const leave = (h: string[]) => {
    if (h.length > 0) matched--;
    for (const t of h) {
      const n = counts.get(t)! - 1;
      if (n === 0) counts.delete(t);
      else counts.set(t, n);
    }
  };
  for (const h of hits.slice(0, WINDOW_WORDS)) enter(h);
  let from = 0;
  let bestScore = counts.size * 100 + matched;
  for (let i = 1; i < hits.length - WINDOW_WORDS + 1; i++) {
    leave(hits[i - 1]!);
    enter(hits[i + WINDOW_WORDS - 1]!);
    const score = counts.size * 100 + matched;
    if (score > bestScore) [bestScore, from] = [score, i];
  }
  return from;
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

/**
 * A chunk's text as a snippet reads it, from the same units as an answer: prose as plain
 * sentences run on; a code block as its lines, one a line (never glued with `;`); a table row
 * read with its header ("rejectStatusCode — Defines … Default: 403."), never its cells glued
 * with commas; each block on its own line.
 */
function snippetText(chunk: string): string {
  // A quote's (or a callout's, as `docsText` gives it) `>` markers are not words to show.
  const markdown = chunk.replace(/^[ \t]*(?:>[ \t]?)+/gm, "");
  let out = "";
  let previous: Sentence["kind"] | null = null;
  for (const s of splitSentences(markdown)) {
    // A table's header row is read into each of its rows (`unitMarkdown`), not shown itself.
    if (s.kind === "markup" || (s.kind === "heading" && s.text.trimStart().startsWith("|"))) {
      continue;
    }
    const text = s.kind === "code"
      ? s.text.split("\n").slice(
        1,
        /^\s*(`{3,}|~{3,})\s*$/.test(s.text.split("\n").at(-1)!) ? -1 : undefined,
      )
        .filter((l) => l.trim()).join("\n")
      : s.kind === "row"
      ? unitMarkdown(s, markdown, s.start).replace(/`/g, "")
      : plainKeepingAngledCode(s);
    if (!text) continue;
    const block = (k: Sentence["kind"] | null) => k === "code" || k === "row" || k === "item";
    out += out === "" ? text : (block(s.kind) || block(previous) ? "\n" : " ") + text;
    previous = s.kind;
  }
  return out;
}

/** Inline code holding `<` or `>`: `<policy domain="coder" … />`, the operator `>`. */
const ANGLED_CODE = /`([^`\n]*[<>][^`\n]*)`/g;
/** A code span's stand-in while `plainText` runs: private-use characters no rule touches. */
const SPAN_MARK = /\uE000(\d+)\uE001/g;

/**
 * `plainText` of a sentence, where inline code that holds `<` or `>` keeps its backticks: shown
 * bare, a snippet read `<policy domain="coder" rights="none" … />` as HTML left in the text (or
 * lost a `<br>` the text names) and "> (greater-than)" as a quote's marker.
 */
function plainKeepingAngledCode(s: Sentence): string {
  if (!s.text.includes("`")) return plainText(s);
  const spans: string[] = [];
  const text = s.text.replace(ANGLED_CODE, (_m, code: string) => {
    spans.push(code);
    return `\uE000${spans.length - 1}\uE001`;
  });
  if (spans.length === 0) return plainText(s);
  return plainText({ ...s, text }).replace(SPAN_MARK, (_m, i: string) => `\`${spans[Number(i)]}\``);
}

/**
 * Measures of an answer's shape for `deno task eval --ask` (scripts/eval.ts): whether it carries
 * the source's syntax instead of clean text, which sections it is stitched from, and whether a
 * citation or a search result lands on the gold section. Documented in docs/answers.md.
 */
import type { Citation } from "../src/ask/ask_schema.ts";
import { headingParts } from "../src/markdown/chunks.ts";
import { plainText, splitSentences } from "../src/text/sentences.ts";

/**
 * What the pages of a set hold that an answer or a snippet must not show flattened: each table
 * row's first two cells joined by ", " (a row read as a sentence), and each pair of consecutive
 * lines of a code block joined by "; " (a code block read as one line), both as plain text.
 */
export type GluedForms = { rows: string[]; code: string[]; codeLines: Set<string> };

/** The glued forms of every table row and code block of the pages. */
export function gluedForms(markdowns: Iterable<string>): GluedForms {
  const rows = new Set<string>();
  const code = new Set<string>();
  const codeLines = new Set<string>();
  for (const markdown of markdowns) {
    for (const s of splitSentences(markdown)) {
      if (s.kind === "row") {
        const cells = s.text.trim().replace(/^\|/, "").replace(/\|$/, "").split("|")
          .map((c) => plainText({ text: c.trim(), kind: "prose" })).filter(Boolean);
        if (cells.length >= 2 && cells[0]!.length + cells[1]!.length >= 6) {
          rows.add(`${cells[0]}, ${cells[1]}`);
        }
      } else if (s.kind === "code") {
        const lines = s.text.split("\n").slice(1, -1).map((l) => l.trim()).filter(Boolean);
        lines.forEach((l) => codeLines.add(l));
        for (let i = 0; i + 1 < lines.length; i++) {
          if (lines[i]!.length + lines[i + 1]!.length >= 8) {
            code.add(`${lines[i]}; ${lines[i + 1]}`);
          }
        }
      }
    }
  }
  return { rows: [...rows], code: [...code], codeLines };
}

const HTML_TAG =
  /<\/?(?:a|abbr|b|br|code|details|div|em|h[1-6]|i|img|kbd|li|ol|p|pre|span|strong|sub|summary|sup|table|tbody|td|th|thead|tr|u|ul)\b[^>]*>|<[a-z][\w-]*\s+[\w-]+="[^"]*"[^>]*>/i;
const TAB_INFO = /\btab="[^"]*"/;
/** An attribute list (`{:target="_blank"}`, `{#id .class}`) left after a link or a word. */
const ATTR_LIST = /\{:[ \t]*[#.\w][^{}\n]*\}|\{[ \t]*#[\w-]+(?:[ \t]+\.[\w-]+)*[ \t]*\}/;
const WIKILINK = /\[\[[^\]]*\]\]/;
const INCLUDE = /\{%-?\s*include\b|\{\{[<%]|--8<--|<!--\s*include|^\s*::include\b/m;
/** A blockquote's `>` left in the text: at a line's start, after a sentence, or doubled. */
const QUOTE_MARKER = /(?:^|\n)[ \t]*>[ \t]|[.:!?] >[ \t]|>[ \t]*>[ \t]/;
const CALLOUT =
  /(?:^|\n)\s*(?:>\s*)?(?:!!!|\?\?\?\+?|:::)\s*\w|\[!(?:NOTE|TIP|WARNING|IMPORTANT|CAUTION|INFO|DANGER)\]|(?:^|\s)(?:\+\+\+|\+\/-)\s+v?\d+\.\d|(?:^|\n)\s*---\s+v?\d+\.\d/i;

/**
 * The kinds of source syntax a text shows (empty when clean): HTML tags, a table row glued with
 * commas, code lines glued with `;`, a tab's info string, wikilink syntax, an include directive,
 * a callout marker, a blockquote's `>` (an answer is paragraphs, lists, code and small tables:
 * "You can use: > > * username/password > * nkeys" kept a quote's markers). Fenced code in a markdown answer is code, and is not looked into; nor is a
 * line of a plain-text snippet that is a line of one of the pages' code blocks (a snippet shows
 * a code block's lines one a line, unfenced: an HTML example's `<td>Transmitted</td>` is the
 * example, not markup the snippet failed to remove; nor is a line the snippet's window cut, when
 * it is a part of such a line).
 */
export function sourceSyntax(text: string, glued: GluedForms): string[] {
  const prose = text.replace(/(^|\n) {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n {0,3}\2[^\n]*/g, "$1")
    .split("\n").filter((l) => !isCodeLine(l, glued.codeLines)).join("\n")
    // A code span stands as a word: "Go to `Scopes` > `Bot Token Scopes`" is a menu's path,
    // not a blockquote's doubled `>`.
    .replace(/`[^`\n]*`/g, " code ");
  const found: string[] = [];
  if (HTML_TAG.test(prose)) found.push("html");
  if (glued.rows.some((r) => text.includes(r))) found.push("row_glued");
  if (glued.code.some((c) => text.includes(c))) found.push("code_glued");
  if (TAB_INFO.test(text)) found.push("tab");
  if (ATTR_LIST.test(prose)) found.push("attr_list");
  if (WIKILINK.test(prose)) found.push("wikilink");
  if (INCLUDE.test(prose)) found.push("include");
  if (CALLOUT.test(prose)) found.push("callout");
  else if (QUOTE_MARKER.test(prose)) found.push("quote");
  return found;
}

/** A section's own heading (the last of its path), for comparing with a gold section. */
function ownHeading(section: string | null, title: string): string {
  return (section?.split(" > ").at(-1) ?? title).trim().toLowerCase();
}

/**
 * Whether a citation or result stands on the gold section: a gold page, and its section's own
 * heading is the gold heading (text above the page's first heading is the page's title's).
 */
export function onGoldSection(
  hit: { page: string; section: string | null; title: string } | undefined,
  gold: string[],
  section: string,
): boolean {
  if (!hit || !gold.includes(hit.page)) return false;
  // The gold heading is written as the page has it: read as the chunker reads headings.
  return ownHeading(hit.section, hit.title) === headingParts(section.trim()).text.toLowerCase();
}

/** How many distinct sections an answer's citations come from. */
export function sectionsOf(citations: Citation[]): number {
  return new Set(citations.map((c) => `${c.page}\u0000${c.section ?? ""}`)).size;
}

/** The median of some numbers (0 for none). */
export function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Whether a line of a text is a line of the pages' code, whole or (cut by `…`) a part of one. */
function isCodeLine(line: string, codeLines: Set<string>): boolean {
  const bare = line.replace(/^… |\s…$/g, "").trim();
  if (codeLines.has(bare)) return true;
  if (bare === line.trim() || bare.length < 8) return false;
  for (const l of codeLines) if (l.includes(bare)) return true;
  return false;
}

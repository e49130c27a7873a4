import { lineSpans } from "./lines.ts";
import { MKDOCS_MARKER } from "./callouts.ts";

/**
 * A sentence of a text, verbatim, with its position: `text === source.slice(start, end)`.
 * `kind` says what block it came from, so it can be rendered to plain text.
 */
export type Sentence = {
  text: string;
  start: number;
  end: number;
  kind: "prose" | "item" | "row" | "code" | "heading" | "markup";
};

/** Words ending in `.` that do not end a sentence. */
const ABBREVIATIONS = new Set(
  ("e.g i.e etc vs cf al approx ca mr mrs ms dr prof st jr sr inc ltd co corp no nos fig figs vol " +
    "pp p ed eds est dept univ jan feb mar apr jun jul aug sep sept oct nov dec mt ft gen col lt " +
    "sgt capt rev hon u.s u.k u.n a.m p.m")
    .split(" "),
);

/**
 * A fence opens a code block at any indentation: a list item's code block is indented under
 * its text (MkDocs' numbered steps, "1. Add annotation …" over a fence four spaces in), and read
 * as prose it was shown as one line ("yaml apiVersion: argoproj.io/v1alpha1 kind: Application …").
 */
const FENCE = /^[ \t]*(`{3,}|~{3,})/;
/** A list item's marker at a line's start. */
export const LIST_ITEM = /^\s{0,6}(?:[-*+]|\d{1,9}[.)])\s+/;
const HEADING = /^ {0,3}#{1,6}(?:\s|$)/;
/**
 * A blockquote's markers at a line's start (`> `, `> > `): the quote's, not its text's. A quoted
 * line is read as the line it quotes, so a quote's `>` line parts its paragraphs and `> * nkeys`
 * is a list item. Before, a blockquote was one paragraph: "You can use:\n>\n> * username/password
 * \n> * nkeys" was one sentence, answered as "You can use: > > * username/password > * nkeys".
 */
const QUOTE_MARKERS = /^[ \t]{0,3}(?:>[ \t]?)+/;
const unquoted = (line: string) => line.replace(QUOTE_MARKERS, "");
const TABLE_ROW = /^\s*\|.*\|/;
const RULE = /^\s*(?:[-*_=|:]\s*){3,}$/;

/**
 * Splits markdown into sentences, each verbatim with its offsets. Blocks come first: a fenced
 * code block is one unit, a list item is one unit (with its indented continuation lines), a
 * table row is one unit, a heading is one unit; none is ever glued to the text around it.
 * Prose paragraphs and list items are then split at `.`, `!` or `?` followed by white space
 * and a capital, a digit or an opening quote — not after an abbreviation (`e.g.`, `Dr.`), an
 * initial (`J. Smith`), nor inside a decimal (`3.5`), which has no white space after its dot.
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const lines = lineSpans(text);
  const push = (start: number, end: number, kind: Sentence["kind"]) => {
    const raw = text.slice(start, end);
    // A quoted unit starts after its quote's markers (its quote is its text, not the `>`).
    const lead = kind === "code"
      ? raw.length - raw.trimStart().length
      : /^(?:\s|>(?=[\s>]|$))*/.exec(raw)![0].length;
    const trail = raw.length - raw.trimEnd().length;
    const s = start + lead;
    const e = end - trail;
    if (e > s) out.push({ text: text.slice(s, e), start: s, end: e, kind });
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = FENCE.exec(line.text);
    if (fence) {
      let j = i + 1;
      while (j < lines.length && !lines[j]!.text.trimStart().startsWith(fence[1]!)) j++;
      if (j >= lines.length) {
        // A fence that nothing closes is the end of a block the text began inside (a passage
        // cut from the middle of a page): the line alone, not the rest of the text as code.
        push(line.start, line.end, "markup");
        i++;
        continue;
      }
      const last = lines[j]!;
      push(line.start, last.end, "code");
      i = j + 1;
      continue;
    }
    const body = unquoted(line.text);
    if (!body.trim()) {
      i++;
      continue;
    }
    if (HEADING.test(body)) {
      push(line.start, line.end, "heading");
      i++;
      continue;
    }
    if (TABLE_ROW.test(line.text) || RULE.test(line.text)) {
      // A row above the |---| line is the table's header: column names, not an answer.
      const header = i + 1 < lines.length && /^\s*\|?\s*:?-{3,}/.test(lines[i + 1]!.text);
      push(line.start, line.end, RULE.test(line.text) ? "markup" : header ? "heading" : "row");
      i++;
      continue;
    }
    const isItem = LIST_ITEM.test(body);
    // A block runs until a blank line, a new block, or (for a list item) the next item.
    let j = i + 1;
    while (j < lines.length) {
      const next = lines[j]!.text;
      const inner = unquoted(next);
      if (!inner.trim() || FENCE.test(next) || HEADING.test(inner) || TABLE_ROW.test(next)) break;
      if (LIST_ITEM.test(inner)) break;
      j++;
    }
    const blockEnd = lines[j - 1]!.end;
    // Blocks that are one unit whatever their stops: a callout's opening line alone (`!!! note`,
    // `??? tip`, `:::warning`, the closing `:::`) is the format's, as a table's rule is ("Defaults
    // to 8000. !!! note This option…"); a paragraph of shell commands, each line at a prompt (`$
    // cat metrics.prom | promtool check metrics`), is code its author wrote without a fence, which
    // read as prose ran together with a full stop a line ("… check metrics. $ curl -s …").
    const whole = j === i + 1 && CALLOUT_LINE.test(body)
      ? "markup"
      : !isItem && lines.slice(i, j).every((l) => PROMPT.test(unquoted(l.text)))
      ? "code"
      : null;
    if (whole) push(line.start, blockEnd, whole);
    else {
      const kind = isItem ? "item" : "prose";
      for (const [s, e] of sentenceSpans(text, line.start, blockEnd)) push(s, e, kind);
    }
    i = j;
  }
  return out;
}

/** A line at a shell prompt: `$ ` and a command. */
const PROMPT = /^[ \t]*\$ \S/;

/** A callout's opening (or closing) line without a title of its own. */
const CALLOUT_LINE = new RegExp(String.raw`^\s*(?:${MKDOCS_MARKER}|:::[\w-]*)[ \t]*$`);

/** MkDocs' callout openers in a unit's text, each with its title if it has one. */
const MKDOCS_MARKERS = new RegExp(
  String.raw`(^|\n)[ \t]*(?:${MKDOCS_MARKER})(?:[ \t]+"([^"\n]*)")?`,
  "g",
);

/** Sentence spans of `text[start, end)`, a paragraph or a list item. */
function sentenceSpans(text: string, start: number, end: number): [number, number][] {
  const block = text.slice(start, end);
  const spans: [number, number][] = [];
  const boundary = /[.!?]["')\]”’]*(?=\s+["'(\[“‘]?[A-Z0-9])/g;
  let from = 0;
  for (const m of block.matchAll(boundary)) {
    const stop = m.index + m[0].length;
    if (m[0][0] === "." && !endsSentence(block, m.index)) continue;
    if (/^\s*\d{1,9}$/.test(block.slice(from, m.index))) continue; // "1. " starts a list item
    spans.push([start + from, start + stop]);
    from = stop;
  }
  spans.push([start + from, end]);
  return spans;
}

/** Whether the dot at `dot` ends a sentence: not after an abbreviation or an initial. */
function endsSentence(block: string, dot: number): boolean {
  const word = /[\p{L}.]+$/u.exec(block.slice(Math.max(0, dot - 12), dot))?.[0] ?? "";
  if (/^\p{Lu}$/u.test(word)) return false; // an initial: "J. Smith"
  return !ABBREVIATIONS.has(word.toLowerCase().replace(/^\.+/, ""));
}

/** Whether a sentence is only markup (a heading line, a rule, a table border). */
export function isMarkupOnly(sentence: string): boolean {
  return /^(#{1,6}\s|[-*_=|:\s]+$|```)/.test(sentence);
}

/**
 * Renders a sentence's markdown to plain text for an answer: no emphasis, code marks,
 * wikilink or link syntax, list markers, table pipes or fences. A list item or a table row
 * that ends without punctuation gets a full stop (one ending in `;` or `,`, as items of a
 * list often do, has it in their place), so it reads as a sentence.
 */
export function plainText(sentence: Pick<Sentence, "text" | "kind">): string {
  let t = sentence.text;
  if (sentence.kind === "code") {
    t = t.replace(/^[ \t]*(`{3,}|~{3,}).*\n?/, "").replace(/\n?[ \t]*(`{3,}|~{3,})\s*$/, "");
    return t.split("\n").map((l) => l.trim()).filter(Boolean).join("; ");
  }
  if (sentence.kind === "row" || (sentence.kind === "heading" && TABLE_ROW.test(t))) {
    t = t.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim())
      .filter(Boolean).join(", ");
  }
  if (sentence.kind === "heading") t = t.replace(/^ {0,3}#{1,6}\s*/, "").replace(/\s#+\s*$/, "");
  t = t.replace(/(^|\n)[ \t]{0,3}(?:>[ \t]?)+/g, "$1").replace(LIST_ITEM, "")
    // Admonition markers (Docusaurus `:::note` … `:::`, MkDocs `!!! warning "Title"` or `+++ 1.2.0`, GitHub
    // `[!NOTE]`) are the format's, not the text's.
    .replace(/(^|\n)[ \t]*:::[\w-]*/g, "$1")
    .replace(MKDOCS_MARKERS, "$1$2")
    .replace(/\[!(?:NOTE|TIP|WARNING|IMPORTANT|CAUTION)\]/g, "")
    // A definition list's marker (MkDocs' `def_list`, Pandoc: ": Defines the port…" under the
    // term) is the format's too.
    .replace(/(^|\n)[ \t]{0,3}:[ \t]+(?=\S)/g, "$1")
    // A link's or an image's attribute list (MkDocs' `attr_list`, kramdown:
    // `[installed](…){:target="_blank"}`, `![Screenshot](…){ width="300" }`).
    .replace(LINK_ATTR_LIST, "$1")
    // An image on a line of its own below a unit's first line illustrates it (a screenshot under
    // each step: "![1](…)"); its alt text glued to the unit read "… ?new_app=1 1.".
    .replace(/\n[ \t]*!\[[^\]]*\]\([^)]*\)[ \t]*(?=\n|$)/g, "")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(
      /\[\[([^\]|#]*)(?:#([^\]|]*))?(?:\|([^\]]*))?\]\]/g,
      (_m, target, section, label) => label ?? (section ? `${target} › ${section}` : target),
    )
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`+([^`]*)`+/g, "$1")
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "$2")
    .replace(/(^|[^\w*])[*_](?=\S)([^*_]*?\S)[*_](?!\w)/g, "$1$2")
    .replace(
      /<\/?[a-z][^>]*>/gi,
      (m) =>
        /^<\/?(a|abbr|b|br|code|details|div|em|h[1-6]|i|img|kbd|li|ol|p|pre|small|span|strong|sub|summary|sup|table|tbody|td|th|thead|tr|u|ul)\b/i
            .test(m)
          ? ""
          : m,
    )
    .replace(/\*\*|~~/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if ((sentence.kind === "item" || sentence.kind === "row") && t) {
    t = t[0]!.toUpperCase() + t.slice(1).replace(/\s*[;,]$/, "");
    if (!/[.!?:]["')\]]?$/.test(t)) t += ".";
  }
  return t;
}

/** One attribute of an attribute list: `#id`, `.class` or `key=value`. */
export const ATTRIBUTE = String.raw`(?:[#.][^\s{}]+|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s{}"']+))`;
/**
 * A link's or an image's attribute list: `{:…}` (kramdown), or `{…}` of attributes only (`{target=_blank}`,
 * `{ .md-button }`); a `{user_id}` or a JSON object right after a link is the text's.
 */
const LINK_ATTR_LIST = new RegExp(
  String.raw`(\]\([^)]*\))\{(?::[^{}\n]*|[ \t]*${ATTRIBUTE}(?:[ \t]+${ATTRIBUTE})*[ \t]*)\}`,
  "g",
);

/** Chinese and Japanese characters: written without spaces, each counts as a word. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;

/**
 * How many words a text holds: white-space-separated tokens with a letter or a digit, and each
 * Chinese or Japanese character (a CJK sentence has no spaces, and would count as one word).
 */
export function wordCount(text: string): number {
  const unspaced = text.match(UNSPACED)?.length ?? 0;
  return unspaced +
    text.replace(UNSPACED, " ").split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

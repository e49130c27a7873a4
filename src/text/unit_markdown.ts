import { pageLines } from "./lines.ts";
import { plainText, type Sentence } from "./sentences.ts";

/**
 * An answer's unit as clean markdown, in the shape its source gave it (docs/answers.md, "Units
 * that keep their shape"): prose as plain sentences (as before), a list item as a list item, a
 * code block as fenced code (its info string cut to the language: no `tab="…"`), and a table
 * row with its table's header: "`rejectStatusCode` — Defines the HTTP status code used for
 * refused requests. Default: `403`." rather than "rejectStatusCode, Defines…, 403, No".
 * `markdown` is the page the sentence was cut from and `start` where it starts there.
 */
export function unitMarkdown(sentence: Sentence, markdown: string, start: number): string {
  if (sentence.kind === "code") return fenced(sentence.text);
  if (sentence.kind === "item") {
    const marker = /^\s*(\d{1,9}[.)])\s/.exec(sentence.text)?.[1] ?? "-";
    return `${marker} ${withCodeSpans(sentence)}`;
  }
  if (sentence.kind === "row") return rowWithHeader(sentence.text, headerAbove(markdown, start));
  return withCodeSpans(sentence);
}

/**
 * A prose sentence or a list item's text as clean markdown: its syntax gone as `plainText` takes
 * it away (a list item's marker too), its code spans kept as written (`--store_dir`, `nats account restore`: a name or a command reads as
 * code, and a sentence beginning with one is not a fragment).
 */
export function withCodeSpans(
  sentence: Pick<Sentence, "text" | "kind">,
  /** Which spans to keep (a search snippet keeps those holding `<` or `>`); the others go bare. */
  kept: (span: string) => boolean = () => true,
): string {
  const spans: string[] = [];
  // Spans are found left to right, each closing at its own backticks: "`a` > `b`" holds two
  // spans, never "` > `" between them.
  const held = sentence.text.replace(/(`+)[^`\n]+?\1/g, (span) => {
    if (!kept(span)) return span;
    spans.push(span);
    return `\uE000${spans.length - 1}\uE000`;
  });
  return plainText({ ...sentence, text: held })
    .replace(/\uE000(\d+)\uE000/g, (m, i) => spans[Number(i)] ?? m);
}

/** A code block with its fence normalised and its info string cut to the language. */
function fenced(text: string): string {
  const lines = text.split("\n");
  const open = /^[ \t]*(`{3,}|~{3,})\s*([\w+#.-]*)/.exec(lines[0]!);
  // Code written without a fence (lines at a shell prompt) is fenced as it is shown.
  if (!open) {
    const indent = Math.min(...lines.map((l) => /^ */.exec(l)![0].length));
    return ["```", ...lines.map((l) => l.slice(indent).trimEnd()), "```"].join("\n");
  }
  const closes = lines.length > 1 && /^[ \t]*(`{3,}|~{3,})\s*$/.test(lines.at(-1)!);
  // A unit's text begins at its fence, its indentation cut: the closing fence keeps it (a code
  // block indented under a list item).
  const indent = /^ */.exec(closes ? lines.at(-1)! : lines[0]!)![0].length;
  const body = lines.slice(1, closes ? -1 : undefined)
    .map((l) => l.slice(Math.min(indent, /^ */.exec(l)![0].length)));
  const fence = body.some((l) => l.includes("```")) ? "~~~~" : "```";
  return [`${fence}${open[2] ?? ""}`, ...body, fence].join("\n");
}

const cells = (row: string) =>
  row.trim().replace(/^\|/, "").replace(/\|$/, "").split(/(?<!\\)\|/).map((c) => c.trim());

/** The header row of the table a row at `start` of `markdown` belongs to, if any. */
function headerAbove(markdown: string, start: number): string[] | null {
  const lines = markdown.slice(0, start).split("\n");
  lines.pop(); // the row's own line, up to where it starts
  for (let i = lines.length - 1; i > 0; i--) {
    if (!/^\s*\|.*\|?\s*$/.test(lines[i]!)) return null;
    if (/^\s*\|?\s*:?-{3,}/.test(lines[i]!)) return cells(lines[i - 1]!);
  }
  return null;
}

/** A table of at most this many rows is shown whole when a sentence announces it. */
export const SMALL_TABLE_ROWS = 8;

const TABLE_LINE = /^\s*\|.*\|?\s*$/;
const SEPARATOR = /^\s*\|?\s*:?-{3,}/;

/**
 * The table the row at `start` of `markdown` stands in, whole: `start` and `end` from its header
 * to its last row, `shown` as a clean markdown table (each cell as `cleanCell` gives it), `plain`
 * each row read with its header. Null when it has no header row or more than `SMALL_TABLE_ROWS`
 * rows.
 */
export function smallTable(
  markdown: string,
  start: number,
): { start: number; end: number; shown: string; plain: string } | null {
  const lines = pageLines(markdown);
  const here = lines.findIndex((l) => start >= l.start && start <= l.end);
  if (here < 0 || !TABLE_LINE.test(lines[here]!.text)) return null;
  let top = here;
  while (top > 0 && TABLE_LINE.test(lines[top - 1]!.text)) top--;
  let bottom = here;
  while (bottom + 1 < lines.length && TABLE_LINE.test(lines[bottom + 1]!.text)) bottom++;
  if (bottom - top < 2 || !SEPARATOR.test(lines[top + 1]!.text)) return null;
  const rows = lines.slice(top + 2, bottom + 1).map((l) => l.text);
  if (rows.length > SMALL_TABLE_ROWS) return null;
  const header = cells(lines[top]!.text);
  const line = (values: string[]) =>
    `| ${values.map((v) => cleanCell(v).replace(/\|/g, "\\|")).join(" | ")} |`;
  return {
    start: lines[top]!.start,
    end: lines[bottom]!.end,
    shown: [
      line(header),
      `|${header.map(() => " --- |").join("")}`,
      ...rows.map((r) => line(cells(r))),
    ]
      .join("\n"),
    plain: rows.map((r) => rowWithHeader(r, header)).join(" "),
  };
}

/**
 * What a table row names, by its table's header: the name of its first column ("Flag",
 * "Option", "Setting"), when the row fills it in. The row "`--query.max-samples` | Maximum
 * number of samples a single query can load… | `50000000`" of a table headed "Flag |
 * Description | Default" names a flag, and answers "… which flag raises it?" although the word
 * is not in it. The other columns' names are left out: every row of a table has them, and a
 * "Default" column met every question saying "by default".
 */
export function rowLabel(row: string, markdown: string, start: number): string {
  const header = headerAbove(markdown, start);
  const name = cells(row)[0];
  if (!header || !name) return "";
  const label = cleanCell(header[0] ?? "").replace(/`/g, "");
  return DESCRIBES.test(label) ? "" : label;
}

/**
 * A cell as inline markdown: HTML tags, link syntax and emphasis dropped, code spans kept as
 * written. What is inside a code span is code: the emphasis rule read `site__name__in` in
 * "`{"site__name__in":  ["HQ"]}`" as "site", bold "name", "in", and the answer said
 * `sitenamein`.
 */
function cleanCell(cell: string): string {
  const spans: string[] = [];
  const masked = cell.replace(/\\\|/g, "|")
    .replace(/(`+)[\s\S]*?[^`]\1(?!`)/g, (span) => `\uE000${spans.push(span) - 1}\uE000`);
  return masked.replace(/<br\s*\/?>/gi, " ")
    .replace(/<\/?(?:a|abbr|b|br|code|div|em|i|img|kbd|p|span|strong|sub|sup|u)\b[^>]*>/gi, "")
    .replace(/\[\[([^\]|#]*)(?:#([^\]|]*))?(?:\|([^\]]*))?\]\]/g, (_m, t, s, l) => l ?? s ?? t)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "$2")
    .replace(/(^|[^\w*`])[*_](?=\S)([^*_`]*?\S)[*_](?!\w)/g, "$1$2")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\uE000(\d+)\uE000/g, (m, i) => spans[Number(i)] ?? m);
}

/** A bare name or value reads as code: `403`, `rejectStatusCode`, `--log.level`. */
function asCode(value: string): string {
  if (value.includes("`") || !/^[\w./:=+-]+$/.test(value)) return value;
  return /[\d_./:=-]|[a-z][A-Z]/.test(value) ? `\`${value}\`` : value;
}

const DESCRIBES =
  /^(?:desc|description|meaning|purpose|explanation|details?|notes?|what it does|comment)s?$/i;

/**
 * A first column headed so holds identifiers: a one-word lower-case name in it is code
 * (`humanize`, as written), not a word to capitalise ("Humanize").
 */
const NAMES =
  /^(?:name|function|flag|option|setting|field|parameter|variable|key|property|attribute|command|method)s?$/i;

const sentence = (text: string) => /[.!?:]["')\]]?$/.test(text) ? text : `${text}.`;

/** A table row read with its header: name, then each cell as "Header: value." */
function rowWithHeader(row: string, header: string[] | null): string {
  const values = cells(row).map(cleanCell);
  const [name, ...rest] = values;
  const parts: string[] = [];
  rest.forEach((value, i) => {
    if (!value) return;
    const label = cleanCell(header?.[i + 1] ?? "").replace(/`/g, "");
    if (!label || DESCRIBES.test(label)) parts.push(sentence(value));
    else parts.push(sentence(`${label}: ${asCode(value)}`));
  });
  const names = NAMES.test(cleanCell(header?.[0] ?? "").replace(/`/g, ""));
  const coded = names && /^[a-z][\w.-]*$/.test(name ?? "") ? `\`${name}\`` : asCode(name ?? "");
  const head = coded.startsWith("`") ? coded : coded.charAt(0).toUpperCase() + coded.slice(1);
  if (!head) return parts.join(" ");
  return parts.length > 0 ? `${head} — ${parts.join(" ")}` : sentence(head);
}

/**
 * The extractive answer: each unit followed by its `[n]` marker; prose sentences run on in one
 * paragraph, list items stand as a list, a code block and a table row each as their own block.
 * Without `marked`, the same blocks without markers (a whole section, cited once).
 */
export function composeAnswer(
  units: {
    kind: Sentence["kind"] | "list" | "section";
    shown: string;
    plain: string;
    from?: unknown;
  }[],
  marked = true,
): string {
  const blocks: string[] = [];
  let paragraph: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push(paragraph.join(" "));
    if (list.length > 0) blocks.push(list.join("\n"));
    paragraph = [];
    list = [];
  };
  // An item stands as a list item beside another item of the same page (`from`); alone, or
  // beside another page's item, it reads as a sentence.
  const item = (i: number, j: number) =>
    units[j]?.kind === "item" && units[j]!.from === units[i]!.from;
  const listed = (i: number) => units[i]?.kind === "item" && (item(i, i - 1) || item(i, i + 1));
  units.forEach((u, i) => {
    const mark = marked ? ` [${i + 1}]` : "";
    // Its code spans kept: as plain text "`<resolution>` is optional" read "<resolution> is…".
    const alone = u.kind === "item" && !listed(i);
    const line = `${alone ? u.shown.replace(/^(?:[-*+]|\d{1,9}[.)]) /, "") : u.shown}${mark}`;
    if (u.kind === "item" && listed(i)) {
      if (paragraph.length > 0 || !item(i, i - 1)) flush();
      list.push(line);
    } else if (u.kind === "code" || u.kind === "row" || u.kind === "list" || u.kind === "section") {
      flush();
      // A marker right under a table would read as one more row of it.
      const gap = /(^|\n)\|[^\n]*\|$/.test(u.shown) ? "\n\n" : "\n";
      blocks.push(u.kind === "row" ? line : `${u.shown}${marked ? `${gap}[${i + 1}]` : ""}`);
    } else {
      if (list.length > 0) flush();
      paragraph.push(line);
    }
  });
  flush();
  return blocks.join("\n\n");
}

import { ATTRIBUTE } from "../text/sentences.ts";
import { maskCode } from "./links.ts";
import { splitLongText } from "./split_long.ts";

/** A passage of a page: the text under one heading, or a window of a long section. */
export type Chunk = {
  ord: number;
  /** Headings from the top of the page down to this passage. */
  headingPath: string[];
  /** The heading's anchor (`#getting-started`), or `` for text before any heading. */
  anchor: string;
  text: string;
};

/** Passages longer than this many words are split, with `OVERLAP_WORDS` carried over. */
export const MAX_WORDS = 300;
export const OVERLAP_WORDS = 40;

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t\r]*$/;

/**
 * The ATX headings of a markdown body, in order, ignoring those inside code blocks. A line is
 * found to be a heading on the code-masked text (a `#` inside a fence is not one), but its text
 * is read from the line as written, inline code and all: in reference documentation the option
 * names are the headings (`` ## `rejectStatusCode` ``), and a heading read from the masked line
 * was empty, so its section could not be found, cited or linked by its name.
 */
export function headingsOf(
  body: string,
): { level: number; text: string; id: string | null; line: number }[] {
  const headings: { level: number; text: string; id: string | null; line: number }[] = [];
  const lines = body.split("\n");
  maskCode(body).split("\n").forEach((masked, index) => {
    const m = HEADING.test(masked) ? HEADING.exec(lines[index]!) : null;
    if (!m) return;
    headings.push({ level: m[1]!.length, ...headingParts((m[2] ?? "").trim()), line: index });
  });
  return headings;
}

/** An attribute list closing a heading (MkDocs' attr_list, Pandoc): `{#PAPERLESS_PORT}`. */
const ATTRIBUTE_LIST = new RegExp(
  String.raw`[ \t]*\{:?[ \t]*(${ATTRIBUTE}(?:[ \t]+${ATTRIBUTE})*)[ \t]*\}$`,
);
/** An inline link (not an image): its text is what the page shows. */
const LINK = /(?<!!)\[([^\]]*)\]\([^)]*\)/g;

/** The heading text without the attribute list that closes it, when it has one with an id or class. */
export function withoutAttributeList(text: string): { text: string; id: string | null } {
  const list = ATTRIBUTE_LIST.exec(text);
  if (!list || !/(?:^|\s)[#.]/.test(list[1]!)) return { text, id: null };
  const id = /(?:^|\s)#([^\s#.{}]+)/.exec(list[1]!)?.[1] ?? null;
  return { text: text.slice(0, list.index), id };
}

/**
 * A heading as the page shows it, and the id its author gave it: an attribute list is not
 * shown (`{#PAPERLESS_PORT}`; its `#id` is the heading's anchor on the site, and the page's own
 * links use it), and a link shows its text (MkDocs reference pages head each setting with a link
 * to itself, `` [`PAPERLESS_PORT=<port>`](#PAPERLESS_PORT) ``). Section paths, the heading words
 * search weighs and the anchors read the heading this way, so a citation names the setting, not
 * its markup.
 */
export function headingParts(raw: string): { text: string; id: string | null } {
  const { text, id } = withoutAttributeList(raw);
  return { text: text.replace(LINK, "$1").trim(), id };
}

/** A heading's anchor: the id its author gave it, or its slug (`uniqueSlug`). */
export function headingAnchor(
  heading: { text: string; id: string | null },
  seen: Map<string, number>,
): string {
  if (heading.id === null) return uniqueSlug(heading.text, seen);
  seen.set(heading.id, (seen.get(heading.id) ?? 0) + 1);
  return heading.id;
}

/** Splits a markdown body at its headings into passages of at most `MAX_WORDS` words. */
export function chunkMarkdown(body: string): Chunk[] {
  const lines = body.split("\n");
  const headings = headingsOf(body);
  const sections: { headingPath: string[]; anchor: string; text: string }[] = [];
  const stack: { level: number; text: string }[] = [];
  const seen = new Map<string, number>();
  let start = 0;
  let current = { headingPath: [] as string[], anchor: "" };
  for (const heading of [...headings, null]) {
    const end = heading ? heading.line : lines.length;
    const text = lines.slice(start, end).join("\n").trim();
    if (text) sections.push({ ...current, text });
    if (!heading) break;
    while (stack.length > 0 && stack[stack.length - 1]!.level >= heading.level) stack.pop();
    stack.push(heading);
    current = { headingPath: stack.map((h) => h.text), anchor: headingAnchor(heading, seen) };
    start = heading.line + 1;
  }
  const chunks: Chunk[] = [];
  for (const section of sections) {
    for (const text of splitLongText(section.text, MAX_WORDS, OVERLAP_WORDS)) {
      chunks.push({
        ord: chunks.length,
        headingPath: section.headingPath,
        anchor: section.anchor,
        text,
      });
    }
  }
  if (chunks.length === 0) chunks.push({ ord: 0, headingPath: [], anchor: "", text: "" });
  return chunks;
}

/** GitHub-style heading anchors: lower case, punctuation dropped, spaces as `-`, deduplicated. */
export function uniqueSlug(heading: string, seen: Map<string, number>): string {
  const base = heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").trim().replace(/\s/g, "-");
  const count = seen.get(base) ?? 0;
  seen.set(base, count + 1);
  return count === 0 ? base : `${base}-${count}`;
}

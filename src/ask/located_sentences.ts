import type { Passage } from "./passages.ts";
import { type Sentence, splitSentences } from "../text/sentences.ts";
import { findLoosely } from "./locate.ts";
import { boundedMemo } from "../lib/bounded_memo.ts";
import { type OutlineEntry, outlineOf } from "../markdown/outline.ts";

/** A unit of a passage's page, with its quote (and, for a code block, its code). */
export type LocatedUnit = Sentence & { quote: string; codeOf?: string };

/** Sentences of a passage located in its page's markdown (quotes are cut from the page). */
export function locatedSentences(passage: Passage): LocatedUnit[] {
  const out: LocatedUnit[] = [];
  const blocks = codeBlocks(passage.markdown);
  // A text that is not the page's own is looked for from its section's heading on, each unit
  // after the one before: a sentence the page repeats (a note every setting of a reference
  // carries, "Default: `False`") is the one of this section.
  let floor = passage.offset >= 0 ? 0 : sectionStart(passage);
  for (const s of splitSentences(passage.text)) {
    if (s.kind === "heading" || s.kind === "markup") continue;
    let start: number;
    let end: number;
    if (passage.offset >= 0) {
      start = passage.offset + s.start;
      end = passage.offset + s.end;
    } else {
      const found = findLoosely(passage.markdown, s.text, floor) ??
        inCallout(passage.markdown, s.text, floor) ?? findLoosely(passage.markdown, s.text) ??
        inCallout(passage.markdown, s.text);
      if (!found) continue;
      [start, end] = found;
      if (start >= floor) floor = end;
    }
    // A window of a long section may begin or end inside a code block (sections are cut at
    // blank lines): the lines it holds of the block read as prose ("[ honor_labels: <boolean> |
    // default = false ]"). They stay candidates, and are shown as the code they are.
    const block = s.kind === "code" ? undefined : blocks.find(([a, b]) => start >= a && end <= b);
    if (block) {
      // The comment lines right above a setting's line are its description (a configuration
      // reference's "# If honor_labels is set to "false", … renamed to exported_job"): they
      // are one unit with it, and are not read as headings of their own.
      start = commentStart(passage.markdown, start, block[0]);
      while (out.length > 0 && out.at(-1)!.start >= start) out.pop();
    }
    const quote = passage.markdown.slice(start, end);
    const text = block || /(?:^|\n)>/.test(s.text) ? quote : s.text;
    out.push({ ...s, text, start, end, quote, ...(block ? { codeOf: block[2] } : {}) });
  }
  return out;
}

/**
 * Where a callout's text stands in its page. Search reads a callout (`:::warning`, `!!! note`)
 * as a blockquote naming its kind ("> **Warning**\n>\n> Do not use…", `docsText`); the page
 * has it as written, so the unit is found by its words alone, without the quote marks and the
 * label. Before, a callout was never found in its page and never answered ("Can I register a
 * GitHub App instead of an OAuth app?" is answered only by a warning).
 */
function inCallout(markdown: string, text: string, from = 0): [number, number] | null {
  if (!/(?:^|\n)>/.test(text)) return null;
  const body = text.replace(/^[> \t]*/gm, "").replace(/^\*\*[^*\n]+\*\*\s*/, "").trim();
  return body.length > 0 ? findLoosely(markdown, body, from) : null;
}

/** Where a passage's section starts in its page (its heading's line), or 0 for the page's lead. */
function sectionStart(passage: Passage): number {
  if (passage.section === null) return 0;
  return outlines(passage.markdown).find((h) => h.path === passage.section)?.offset ?? 0;
}

/** A page's outline, remembered for the last pages asked. */
const outlines: (markdown: string) => OutlineEntry[] = boundedMemo(outlineOf, 16, Infinity);

/** Where the comment lines (`#`, `//`) right above the line at `start` begin, within a block. */
export function commentStart(markdown: string, start: number, blockStart: number): number {
  let at = markdown.lastIndexOf("\n", start - 1) + 1;
  while (at > blockStart) {
    const previous = markdown.lastIndexOf("\n", at - 2) + 1;
    if (previous <= blockStart || !/^[ \t]*(?:#|\/\/)/.test(markdown.slice(previous, at))) break;
    at = previous;
  }
  return Math.min(at, start);
}

/** A page's fenced code blocks (start, end, language), remembered for the last pages asked. */
const codeBlocks: (markdown: string) => [number, number, string][] = boundedMemo(
  (markdown) =>
    splitSentences(markdown).filter((s) => s.kind === "code").map((s) => [
      s.start,
      s.end,
      /^ {0,3}(?:`{3,}|~{3,})\s*([\w+#.-]*)/.exec(s.text)?.[1] ?? "",
    ]),
  16,
  Infinity,
);

/**
 * Whether a passage's page is documentation with sections (more than one heading): its answer
 * comes from one section (`oneSection`). A page of one heading (a SQuAD paragraph, a note) is
 * one section already, and the best-ranked other pages may hold the answer (`otherPages`).
 */
export function sectioned(passage: Passage): boolean {
  return (passage.markdown.match(/^ {0,3}#{1,6}\s/gm) ?? []).length >= 2;
}

/**
 * Whether a passage's page has exactly one heading, as SQuAD's paragraphs do (a title and its
 * text): its lines are not read as a list's items by the rules for lists, which a line break
 * before "3) is usually known as ozone" would otherwise start. A page of sections, or one without
 * a heading (its title in front matter), is documentation.
 */
export function oneHeading(passage: Passage): boolean {
  return (passage.markdown.match(/^ {0,3}#{1,6}\s/gm) ?? []).length === 1;
}

/**
 * Whether a passage's page is shaped as SQuAD's paragraphs are: one heading, its `#` title, over
 * its text. The verdict weighs every other page as documentation: a page of sections, and also
 * one whose title is in front matter with a single `##` section or none (a command's flag
 * reference, a page of prose), which `sectioned` leaves out; and such a page too when the
 * passages beside it are not all shaped so (`weigh`, src/ask/ask.ts).
 */
export function titledParagraph(passage: Passage): boolean {
  return oneHeading(passage) && /^ {0,3}#\s/m.test(passage.markdown);
}

/** The section a passage stands in, as a key. */
export const sectionKey = (p: Passage) => `${p.pageId}\u0000${p.section ?? ""}`;

import { withoutRepeats } from "../markdown/split_long.ts";
import { splitSentences } from "../text/sentences.ts";

/**
 * Where text stands in its page: `findLoosely` finds a sentence or a quote whatever its white
 * space, `located` finds a retrieved chunk and starts it at a whole sentence. Both are linear in
 * the page's length: a page is written by its users, and may be a megabyte of "a a a …".
 */

/** The last page collapsed, kept for the next call (a passage's sentences share a page). */
let last: { text: string; flat: string; at: Int32Array } | null = null;

/** `text` with each run of white space as one space, and where each kept character stood. */
function collapsed(text: string): { flat: string; at: Int32Array } {
  if (last?.text === text) return last;
  const parts: string[] = [];
  const at = new Int32Array(text.length + 1);
  let n = 0;
  let from = 0;
  const keep = (to: number) => {
    for (let i = from; i < to; i++) at[n++] = i;
    parts.push(text.slice(from, to));
  };
  for (const m of text.matchAll(/\s+/g)) {
    keep(m.index);
    at[n++] = m.index;
    parts.push(" ");
    from = m.index + m[0].length;
  }
  keep(text.length);
  last = { text, flat: parts.join(""), at };
  return last;
}

/**
 * Where `needle` stands in `text`, white space compared loosely, at or after offset `from` of
 * `text`; null if absent.
 */
export function findLoosely(text: string, needle: string, from = 0): [number, number] | null {
  const words = needle.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const wanted = words.join(" ");
  const { flat, at } = collapsed(text);
  const i = flat.indexOf(wanted, from > 0 ? flatIndex(at, flat.length, from) : 0);
  if (i < 0) return null;
  // The needle starts and ends with a character that is not white space: both stood in `text`.
  return [at[i]!, at[i + wanted.length - 1]! + 1];
}

/** The first place of the collapsed text whose character stood at or after `offset`. */
function flatIndex(at: Int32Array, length: number, offset: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How far before a window's start the sentence it began in is looked for. */
const LOOK_BACK = 600;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;

/**
 * A chunk's text as it stands in its page. A window of a long section (`chunkMarkdown`) starts
 * with the last words of the window before it, joined by single spaces and cut mid-sentence:
 * "and Enter or Tab. - **Saving**: Save or Ctrl+S." read as one sentence gluing two list items,
 * and one starting in lower case. Such a text is found in the markdown (white space loosely)
 * and moved back to the start of the sentence it began in, found within its block (the
 * paragraph or the list item) at most `LOOK_BACK` characters back; when that start is further
 * (a long paragraph without a full stop), the window starts at its first whole sentence
 * instead. It is then the page's own bytes, line breaks and all.
 */
export function located(markdown: string, text: string): { text: string; offset: number } {
  const exact = markdown.indexOf(text);
  const found: [number, number] | null = exact >= 0
    ? [exact, exact + text.length]
    : findLoosely(markdown, text);
  if (!found) {
    // A window of a long table or code block carries its header or fence (`withoutRepeats`).
    for (const inner of withoutRepeats(text)) {
      const at = located(markdown, inner);
      if (at.offset >= 0) return at;
    }
    return { text, offset: -1 };
  }
  const [start, end] = found;
  const lineStart = markdown.lastIndexOf("\n", start - 1) + 1;
  // A window that starts its line starts a block (a section's first window always does).
  if (!markdown.slice(lineStart, start).trim()) {
    return { text: markdown.slice(start, end), offset: start };
  }
  // Back over the lines of its block: to a line after a blank one or a heading, or one opening
  // a list item, but not beyond the floor.
  const floor = Math.max(0, start - LOOK_BACK);
  let from = lineStart;
  let whole = true;
  while (from > 0 && !LIST_ITEM.test(markdown.slice(from, from + 16))) {
    const prev = markdown.lastIndexOf("\n", from - 2) + 1;
    const line = markdown.slice(prev, from - 1);
    if (!line.trim() || /^#{1,6}\s/.test(line)) break;
    if (prev < floor) {
      whole = false;
      break;
    }
    from = prev;
  }
  if (from < floor) [from, whole] = [floor, false];
  const rel = start - from;
  const units = splitSentences(markdown.slice(from, end));
  // Within a whole block, the sentence the window began in; past the floor, the first
  // sentence of the window that starts in it (the one before is cut at the floor).
  const unit = whole
    ? units.filter((u) => u.start <= rel).pop()
    : units.find((u) => u.start > 0 && u.start >= rel);
  const begin = unit ? from + unit.start : start;
  return { text: markdown.slice(begin, end), offset: begin };
}

import { boundedMemo } from "../lib/bounded_memo.ts";

/** A line of a text, without its newline, with its offsets: `text === source.slice(start, end)`. */
export type Line = { start: number; end: number; text: string };

/** A text's lines with their offsets. */
export function lineSpans(source: string): Line[] {
  const lines: Line[] = [];
  let pos = 0;
  for (const text of source.split("\n")) {
    lines.push({ start: pos, end: pos + text.length, text });
    pos += text.length + 1;
  }
  return lines;
}

/**
 * A page's lines, remembered for the last pages read: an answer looks up callouts and tables in
 * the same few pages many times, and a page is split once.
 */
export const pageLines: (markdown: string) => Line[] = boundedMemo(lineSpans, 16, Infinity);

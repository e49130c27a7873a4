import { outlineOf } from "../markdown/outline.ts";
import type { Passage } from "./passages.ts";

/**
 * The subsection that opens right after `end` in a passage's page, as a passage of its own: a
 * section's lead ("Remember that in order to enable JetStream … you need to enable it on at least
 * one of your servers") followed by nothing but a deeper heading ("### Command Line"), whose text
 * says how ("Enable JetStream by specifying the `-js` flag …"). Null when anything else stands
 * between `end` and the next heading, or when that heading is not deeper than the one `end`
 * stands under. The subsection runs to the next heading of any level; its section and anchor
 * are the ones search gives it.
 */
export function subsectionAfter(passage: Passage, end: number): Passage | null {
  const md = passage.markdown;
  const outline = outlineOf(md);
  const next = outline.findIndex((h) => h.offset >= end);
  const sub = outline[next];
  const above = outline[next - 1];
  if (!sub || !above || sub.level <= above.level || /\S/.test(md.slice(end, sub.offset))) {
    return null;
  }
  const bodyStart = md.indexOf("\n", sub.offset) + 1;
  if (bodyStart === 0) return null;
  const bodyEnd = outline[next + 1]?.offset ?? md.length;
  return {
    ...passage,
    section: sub.path,
    url: `${passage.url.replace(/#.*$/, "")}#${sub.anchor}`,
    text: md.slice(bodyStart, bodyEnd),
    offset: bodyStart,
  };
}

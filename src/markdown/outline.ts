import { headingAnchor, headingsOf, uniqueSlug } from "./chunks.ts";
import { splitFrontMatter } from "./front_matter.ts";

/** One heading of a page, with where it starts and the headings above it. */
export type OutlineEntry = {
  level: number;
  text: string;
  /** The heading's anchor, the same one search result urls end in. */
  anchor: string;
  /** Character offset of the heading's line in the page's markdown. */
  offset: number;
  /** Headings from the top of the page down to this one, joined with ` > ` as search does. */
  path: string;
};

/**
 * The ATX headings of a page with anchors, character offsets (in the whole markdown) and heading
 * paths. Front matter is skipped, as the chunker skips it, so anchors match search's.
 */
export function outlineOf(markdown: string): OutlineEntry[] {
  let body = markdown, bodyOffset = 0;
  try {
    ({ body, bodyOffset } = splitFrontMatter(markdown));
  } catch {
    // Stored pages have valid front matter; if not, read the whole text as the body.
  }
  const lineStarts = [bodyOffset];
  for (let i = 0; i < body.length; i++) if (body[i] === "\n") lineStarts.push(bodyOffset + i + 1);
  const seen = new Map<string, number>();
  const stack: { level: number; text: string }[] = [];
  return headingsOf(body).map((h) => {
    while (stack.length > 0 && stack[stack.length - 1]!.level >= h.level) stack.pop();
    stack.push(h);
    return {
      level: h.level,
      text: h.text,
      anchor: headingAnchor(h, seen),
      offset: lineStarts[h.line]!,
      path: stack.map((s) => s.text).join(" > "),
    };
  });
}

/**
 * The heading a reader means by `section`: its anchor (`#making-compost`), its text, or its
 * heading path (`Compost > Making it`), compared case-insensitively. Null when none matches.
 */
export function findSection(outline: OutlineEntry[], section: string): OutlineEntry | null {
  const wanted = section.trim().replace(/^#/, "").toLowerCase();
  return outline.find((h) => h.anchor.toLowerCase() === wanted) ??
    outline.find((h) => h.text.toLowerCase() === wanted) ??
    outline.find((h) => h.path.toLowerCase() === wanted) ??
    outline.find((h) => uniqueSlug(h.text, new Map()) === uniqueSlug(wanted, new Map())) ??
    null;
}

/** The heading path in effect at `offset` (the last heading starting at or before it). */
export function sectionAt(outline: OutlineEntry[], offset: number): string | null {
  let found: OutlineEntry | null = null;
  for (const h of outline) {
    if (h.offset > offset) break;
    found = h;
  }
  return found?.path ?? null;
}

/** The body without its leading `# Title` line (the title is given beside the text). */
export function withoutTitleHeading(markdown: string): string {
  const m = /^\s*# [^\n]*(?:\n|$)\s*/.exec(markdown);
  return m ? markdown.slice(m[0].length) : markdown;
}

import { cleanPath, pathKey, relativeHref, resolveRelative } from "./paths.ts";
import { closesFence, fenceOf } from "./fences.ts";

/** A link from one page to another, as written in its markdown. */
export type ParsedLink = {
  kind: "wikilink" | "markdown";
  /** The page path the link points at (relative links already resolved). */
  target: string;
  targetKey: string;
  /** The `#Section` part, without the `#`. */
  section: string | null;
  label: string | null;
  /** Offsets of the target text inside the markdown, for rewriting it on rename. */
  targetStart: number;
  targetEnd: number;
};

const WIKILINK = /\[\[([^[\]\n|]+?)(?:\|([^[\]\n]*?))?\]\]/g;
const MD_LINK =
  /(!?)\[((?:[^[\]\n]|\[[^[\]\n]*\])*)\]\(\s*(<[^>\n]*>|[^\s()]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/dg;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Most links one page may hold, repeats included (issue 26.3): rendering costs per link
 * written, not per distinct target, so a page of 100,000 copies of one link took seconds to
 * view. Counted by `countLinks`.
 */
export const MAX_LINKS = 5_000;

/**
 * How many links a markdown text writes outside code: every `](` (a link or image, any
 * target) and every `[[` (a wikilink), repeats included. An upper bound that costs one scan,
 * taken before anything parses the links.
 */
export function countLinks(markdown: string): number {
  const text = maskCode(markdown);
  let count = 0;
  for (let at = text.indexOf("](");; at = text.indexOf("](", at + 2)) {
    if (at < 0) break;
    count++;
  }
  for (let at = text.indexOf("[[");; at = text.indexOf("[[", at + 2)) {
    if (at < 0) break;
    count++;
  }
  return count;
}

/** Finds the page links of a markdown text in order of appearance, ignoring code. */
export function extractLinks(markdown: string, fromPath: string): ParsedLink[] {
  const text = maskCode(markdown);
  const links: ParsedLink[] = [];
  for (const m of text.matchAll(WIKILINK)) {
    const raw = m[1] ?? "";
    const hash = raw.indexOf("#");
    const page = cleanPath(hash < 0 ? raw : raw.slice(0, hash));
    if (!page) continue;
    const section = hash < 0 ? null : raw.slice(hash + 1).trim() || null;
    const start = m.index + 2;
    links.push({
      kind: "wikilink",
      target: page,
      targetKey: pathKey(page),
      section,
      label: m[2]?.trim() || null,
      targetStart: start,
      targetEnd: start + raw.length,
    });
  }
  for (const m of text.matchAll(MD_LINK)) {
    if (m[1] === "!") continue;
    const hrefText = m[3] ?? "";
    const href = hrefText.startsWith("<") ? hrefText.slice(1, -1) : hrefText;
    if (SCHEME.test(href) || href.startsWith("#") || href.startsWith("//")) continue;
    const hash = href.indexOf("#");
    const file = hash < 0 ? href : href.slice(0, hash);
    if (!/\.md$/i.test(file)) continue;
    const page = resolveRelative(fromPath, safeDecode(file));
    if (!page) continue;
    const start = m.indices![3]![0];
    links.push({
      kind: "markdown",
      target: page,
      targetKey: pathKey(page),
      section: hash < 0 ? null : safeDecode(href.slice(hash + 1)) || null,
      label: m[2]?.trim() || null,
      targetStart: start,
      targetEnd: start + hrefText.length,
    });
  }
  return links.sort((a, b) => a.targetStart - b.targetStart);
}

/**
 * Rewrites the targets of some links: `newTarget(link, index)` returns the new page path
 * for the link at `index` of `extractLinks`, or null to leave it. Labels and sections stay.
 */
export function rewriteLinks(
  markdown: string,
  fromPath: string,
  newTarget: (link: ParsedLink, index: number) => string | null,
): string {
  const links = extractLinks(markdown, fromPath);
  // Pieces joined once: slicing the whole text per link made many links quadratic.
  const parts: string[] = [];
  let at = 0;
  links.forEach((link, i) => {
    const target = newTarget(link, i);
    if (target === null || link.targetStart < at) return;
    const section = link.section ? `#${link.section}` : "";
    const replacement = link.kind === "wikilink"
      ? target + section
      : relativeHref(fromPath, target) + (link.section ? `#${encodeURI(link.section)}` : "");
    parts.push(markdown.slice(at, link.targetStart), replacement);
    at = link.targetEnd;
  });
  parts.push(markdown.slice(at));
  return parts.join("");
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A code span: a run of backticks not escaped, then text up to a run of the same length, over
 * line breaks but not over a blank line.
 */
const CODE_SPAN = /(?<!\\)(`+)((?:[^\n]|\n(?![ \t]*\n))*?[^`])\1(?!`)/g;

/**
 * Blanks out fenced code blocks and inline code spans, keeping every offset and newline,
 * so that links inside code are not taken for links.
 */
export function maskCode(markdown: string): string {
  const lines = markdown.split("\n");
  let fence: string | null = null;
  const out = lines.map((line) => {
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
      return " ".repeat(line.length);
    }
    fence = fenceOf(line);
    return fence !== null ? " ".repeat(line.length) : line;
  }).join("\n");
  // A span may run over a line break: its newlines stay, so line numbers stay those of the text.
  // It never runs over a blank line (a paragraph, list or table ends there), and a backtick
  // escaped with a backslash opens none: one stray backtick in a table cell would otherwise mask
  // every line up to the next backtick of the page, headings among them.
  return out.replace(CODE_SPAN, (span) => span.replace(/[^\n]/g, " "));
}

/** What makes two links the same link: kind, target as written, section and label. */
export function linkIdentity(l: ParsedLink): string {
  return JSON.stringify([l.kind, l.target, l.section, l.label]);
}

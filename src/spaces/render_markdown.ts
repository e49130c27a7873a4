// @ts-types="@types/markdown-it"
import MarkdownIt, {
  type StateBlock,
  type StateCore,
  type StateInline,
  type Token,
} from "markdown-it";
import {
  headingAnchor,
  headingParts,
  uniqueSlug,
  withoutAttributeList,
} from "../markdown/chunks.ts";
import { docsBlocks, readMarker } from "../markdown/docs_blocks.ts";
import { highlightCode } from "../markdown/highlight_code.ts";
import { blockHtml } from "./docs_block_html.ts";
import { splitFrontMatter } from "../markdown/front_matter.ts";
import { extractLinks, MAX_LINKS } from "../markdown/links.ts";
import { cleanPath, pathKey, resolveRelative } from "../markdown/paths.ts";
import { newPageHref, pageHref } from "../kit/web/space_urls.ts";
import type { LinkTarget } from "./store.ts";

/** What rendering a page needs to know about its wiki. */
export type RenderContext = {
  wikiId: string;
  /** The page's path: relative links resolve against its folder. */
  path: string;
  /** The page each link key reaches (`selectLinkTargets`); a key not in it is a missing page. */
  targets: Map<string, LinkTarget>;
  /** Members get links to the editor for missing pages; readers, to the not-found page. */
  canCreate: boolean;
  /** A leading level-1 heading with this text is left out: the page frame shows the title. */
  title?: string;
};

// Raw HTML is escaped (`html: false`); code blocks are highlighted on the server (`highlightCode`,
// no script needed to read them); markdown-it's own link check already refuses
// `javascript:`, `vbscript:`, `file:` and non-image `data:` URLs.
const md = new MarkdownIt({ html: false, linkify: true, highlight: highlightCode });
md.block.ruler.before("code", "docs_block", docsBlock);
md.inline.ruler.before("link", "wikilink", wikilink);
md.core.ruler.push("wiki_links", rewriteTokens);
/** The same rules without links of any kind: for a page over the links cap. */
const linkless = new MarkdownIt({ html: false, linkify: false, highlight: highlightCode })
  .disable(["link", "image"]);
linkless.block.ruler.before("code", "docs_block", docsBlock);
linkless.core.ruler.push("wiki_links", rewriteTokens);

/** Shown above a page whose links are shown as text. */
const LINKS_AS_TEXT = `<p class="notice" role="status">This page holds more than ${MAX_LINKS} ` +
  "links, the most a page may hold: they are shown as text. Edit it to fewer links.</p>\n";

const WIKILINK_AT = /\[\[([^[\]\n|]+?)(?:\|([^[\]\n]*?))?\]\]/y;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The link keys a page's markdown mentions, to look up with `selectLinkTargets`. */
export function linkKeys(markdown: string, path: string): string[] {
  return extractLinks(markdown, path).map((l) => l.targetKey);
}

/**
 * Renders a page's markdown (without its front matter) to HTML: wikilinks and relative `.md`
 * links go to the wiki's pages, missing ones marked as such; a wikilink without a label shows
 * the page's title; headings get the anchors search results point at; external links get
 * `rel="nofollow ugc"`.
 */
export function renderMarkdown(
  markdown: string,
  context: RenderContext,
  options: { links: boolean } = { links: true },
): string {
  let body = markdown;
  try {
    body = splitFrontMatter(markdown).body;
  } catch {
    // Malformed front matter (only in a preview: saved pages parse) is shown as written.
  }
  if (!options.links) {
    return LINKS_AS_TEXT + linkless.render(docsBlocks(body, READING), { context });
  }
  return md.render(docsBlocks(body, READING), { context });
}

/** A docs block's marker line (`docsBlocks`) as the HTML that opens or closes it. */
function docsBlock(state: StateBlock, startLine: number, _end: number, silent: boolean): boolean {
  const start = state.bMarks[startLine]! + state.tShift[startLine]!;
  if (state.src.charCodeAt(start) !== 0x1f) return false;
  const marker = readMarker(state.src.slice(start, state.eMarks[startLine]));
  if (!marker) return false;
  if (!silent) {
    const token = state.push("html_block", "", 0);
    token.content = blockHtml(marker, state.env as { steps?: number });
    token.map = [startLine, startLine + 1];
  }
  state.line = startLine + 1;
  return true;
}

/** `[[Target]]`, `[[Target|label]]`, `[[Target#Section]]` as a link token. */
function wikilink(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5b || state.src.charCodeAt(state.pos + 1) !== 0x5b) {
    return false;
  }
  WIKILINK_AT.lastIndex = state.pos;
  const m = WIKILINK_AT.exec(state.src);
  if (!m) return false;
  const raw = m[1]!;
  const hash = raw.indexOf("#");
  const target = cleanPath(hash < 0 ? raw : raw.slice(0, hash));
  if (!target) return false;
  if (!silent) {
    const section = hash < 0 ? null : raw.slice(hash + 1).trim() || null;
    const link = linkTo(state.env.context as RenderContext, target, section);
    const open = state.push("link_open", "a", 1);
    open.attrs = link.attrs;
    open.markup = "wikilink";
    state.push("text", "", 0).content = m[2]?.trim() || link.text || raw.trim();
    if (link.missing) state.push("html_inline", "", 0).content = MISSING_NOTE;
    state.push("link_close", "a", -1);
  }
  state.pos += m[0].length;
  return true;
}

/** The reading view shows a definition list's entries as such (`docsBlocks`). */
const READING = { definitions: true };

const MISSING_NOTE = '<span class="sr-only"> (page not written yet)</span>';

/**
 * Where a link to a page goes, whether that page exists and, when it does, the text a
 * wikilink without a label shows: the page's title (its last path segment when the page has
 * no title of its own), then the section. A missing page's link shows what was written.
 */
function linkTo(
  context: RenderContext,
  target: string,
  section: string | null,
  /** A markdown link's fragment is an anchor: one in capitals is an id an author gave a heading. */
  fragment = false,
): { attrs: [string, string][]; missing: boolean; text?: string } {
  const found = context.targets.get(pathKey(target));
  if (found) {
    const given = fragment && section !== null && /^[^\s]+$/.test(section) &&
      section !== section.toLowerCase();
    const anchor = section ? `#${given ? section : uniqueSlug(section, new Map())}` : "";
    const title = found.title.trim() && found.title !== found.path
      ? found.title
      : found.path.slice(found.path.lastIndexOf("/") + 1);
    return {
      attrs: [["href", pageHref(context.wikiId, found.path) + anchor]],
      missing: false,
      text: section ? `${title} › ${section}` : title,
    };
  }
  const href = context.canCreate
    ? newPageHref(context.wikiId, target)
    : pageHref(context.wikiId, target);
  const title = `Page "${target}" does not exist yet${context.canCreate ? ": create it" : ""}`;
  return {
    attrs: [["href", href], ["class", "missing"], ["title", title]],
    missing: true,
  };
}

/**
 * After parsing: heading anchors (as `chunkMarkdown` computes them, so search results land on
 * them), the title heading left out, relative `.md` links pointed at pages.
 */
function rewriteTokens(state: StateCore): void {
  const context = state.env.context as RenderContext;
  const tokens = state.tokens;
  const seen = new Map<string, number>();
  if (
    tokens[0]?.type === "heading_open" && tokens[0].tag === "h1" &&
    plainHeading(tokens[1]!.content) === context.title
  ) {
    headingAnchor(headingParts(tokens[1]!.content), seen);
    tokens.splice(0, 3);
  }
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === "heading_open") {
      const inline = tokens[i + 1]!;
      const id = headingAnchor(headingParts(inline.content), seen);
      if (id) token.attrSet("id", id);
      // An attribute list closing the heading (`{#PAPERLESS_PORT}`) gave its id: not its text.
      const last = inline.children?.at(-1);
      if (last?.type === "text") last.content = withoutAttributeList(last.content).text.trimEnd();
    } else if (token.type === "inline" && token.children) {
      token.children = rewriteLinks(state, token.children, context);
    }
  }
}

/**
 * Points relative `.md` links at pages and marks external ones `nofollow`. One pass that
 * builds the children anew: a missing page's note goes before its link's close, found by a
 * stack of open links rather than a search per link (which made a page of many missing links
 * quadratic to render).
 */
function rewriteLinks(state: StateCore, children: Token[], context: RenderContext): Token[] {
  const out: Token[] = [];
  const open: boolean[] = [];
  for (const token of children) {
    if (token.type === "link_close") {
      if (open.pop()) {
        const note = new state.Token("html_inline", "", 0);
        note.content = MISSING_NOTE;
        out.push(note);
      }
    } else if (token.type === "link_open") {
      open.push(token.markup !== "wikilink" && rewriteLink(token, context));
    }
    out.push(token);
  }
  return out;
}

/** Rewrites one (non-wiki) link; true when it points at a missing page. */
function rewriteLink(token: Token, context: RenderContext): boolean {
  const href = token.attrGet("href") ?? "";
  if (SCHEME.test(href) || href.startsWith("//")) {
    if (/^https?:/i.test(href)) token.attrSet("rel", "nofollow ugc");
    return false;
  }
  const hash = href.indexOf("#");
  const file = hash < 0 ? href : href.slice(0, hash);
  if (!/\.md$/i.test(file)) return false;
  const target = resolveRelative(context.path, safeDecode(file));
  if (!target) return false;
  const section = hash < 0 ? null : safeDecode(href.slice(hash + 1)) || null;
  const link = linkTo(context, target, section, true);
  token.attrs = link.attrs;
  return link.missing;
}

/** A heading's text as a page title is taken from it (see `parsePage`). */
function plainHeading(text: string): string {
  return text.replace(/\[\[([^\]|]+)\|?([^\]]*)\]\]/g, (_, t, l) => l || t)
    .replace(/[*_`]/g, "").trim();
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

import { z } from "zod";
import type { Db } from "../db/db.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { docsText } from "../markdown/docs_blocks.ts";
import { findSection, outlineOf, sectionAt } from "../markdown/outline.ts";
import { versionPageUrl } from "../lib/urls.ts";
import { resolveVersionPage, versionLinksOf } from "../versions/version_pages.ts";
import { resolveVersion, versionParam } from "../versions/versions.ts";
import { resolvePageRef } from "./read_page.ts";
import type { PageRow } from "../db/page_row.ts";
import { selectLinksFrom, selectRevision } from "./store.ts";
import { addSourceFreshness, sourceFreshnessFields } from "../sources/freshness.ts";
import { forReads } from "../db/replicas.ts";

/** Default and largest slice of a page returned at once (about 5k and 12k tokens). */
export const DEFAULT_MAX_CHARS = 20_000;
export const LIMIT_MAX_CHARS = 50_000;

/** Input of a page read (MCP `get_page`, REST page routes); the wiki comes from the caller. */
export const getPageInput = z.object({
  page: z.string().min(1).max(400).describe(
    "The page path from search results or links (case-insensitive, `_` equals space), its numeric " +
      "id, or its url from search; add `#Section` (a heading or its anchor) to start at that section",
  ),
  offset: z.number().int().min(0).default(0).describe(
    "Character offset to start from: the next_offset of a previous call, for long pages",
  ),
  max_chars: z.number().int().min(200).max(LIMIT_MAX_CHARS).default(DEFAULT_MAX_CHARS).describe(
    `How many characters of markdown to return at most (200-${LIMIT_MAX_CHARS})`,
  ),
  revision: z.number().int().min(1).optional().describe(
    "Read this earlier revision of the page (any kept one; default: the current revision)",
  ),
  if_changed_since: z.number().int().min(1).optional().describe(
    "The revision you already have: if the page is still at it, only `unchanged: true` comes back, without the text",
  ),
  version: versionParam,
});

/** A page, or a slice of a long one. */
export const pageContentSchema = z.object({
  wiki: z.string(),
  page: z.string(),
  title: z.string(),
  markdown: z.string(),
  revision: z.number().int().describe("The revision this text is from"),
  current_revision: z.number().int().describe("The page's newest revision"),
  unchanged: z.boolean().describe(
    "True when the page is still at `if_changed_since`: no text is sent",
  ),
  updated_at: z.string(),
  url: z.string(),
  links: z.array(z.object({ page: z.string(), title: z.string().nullable(), exists: z.boolean() }))
    .describe("Outgoing links of the current revision (empty for an earlier one)"),
  section: z.string().nullable().describe(
    "The heading path the slice starts in (null before the first heading)",
  ),
  offset: z.number().int().describe("Character offset the slice starts at"),
  total_chars: z.number().int(),
  truncated: z.boolean().describe(
    "True when more of the page follows: call again with next_offset",
  ),
  next_offset: z.number().int().nullable(),
  version: z.string().optional().describe(
    "The version of the wiki this text is from (absent: the live pages)",
  ),
  ...sourceFreshnessFields,
});
export type PageContent = z.infer<typeof pageContentSchema>;

/** The text of a page at one revision (the current one by default). */
export type PageText = {
  page: PageRow;
  revision: number;
  path: string;
  title: string;
  markdown: string;
  updatedAt: Date;
};

/** Splits `Page#Section` into the page reference and the section (paths never contain `#`). */
export function splitSection(ref: string): { ref: string; section: string | null } {
  const hash = ref.indexOf("#");
  if (hash < 0) return { ref, section: null };
  const section = ref.slice(hash + 1).trim();
  return { ref: ref.slice(0, hash), section: section || null };
}

/**
 * The text of a page already found (`resolvePageRef`) at `revision` (current when omitted): the
 * current text is the row's own; `page_not_found` for a revision not kept.
 */
export async function readPageText(db: Db, page: PageRow, revision?: number): Promise<PageText> {
  if (revision === undefined || revision === page.revision) {
    return {
      page,
      revision: page.revision,
      path: page.path,
      title: page.title,
      markdown: page.markdown,
      updatedAt: page.updated_at,
    };
  }
  const old = revision < page.revision ? await selectRevision(db, page.id, revision) : null;
  if (!old) {
    throw new AppError(
      "page_not_found",
      `Page "${page.path}" has no revision ${revision} (its current revision is ${page.revision})`,
    );
  }
  return {
    page,
    revision,
    path: old.path,
    title: old.title,
    markdown: old.markdown,
    updatedAt: old.created_at,
  };
}

/**
 * Reads a page's markdown from `offset` (or from the start of `#Section`), cut at a line break
 * near `max_chars` when it can be; an earlier revision on request; only `unchanged` when the
 * caller already has the current revision. `found`: the page the caller already resolved
 * (`resolvePageRef`), so it is not looked up again.
 */
export async function getPageContent(
  deps: Pick<Deps, "db" | "config">,
  wikiId: string,
  input: z.input<typeof getPageInput>,
  found?: PageRow,
): Promise<PageContent> {
  return (await readPageContent(deps, wikiId, input, found)).content;
}

/**
 * A page read once: `content` as `getPageContent` gives it, and `cut` for a shorter slice from
 * the same offset out of the text already read (MCP `get_page` fits `max_tokens` with it).
 */
type PageRead = { content: PageContent; cut(maxChars: number): PageContent };

/** `getPageContent`, with the means to cut the slice shorter without reading the page again. */
export async function readPageContent(
  deps: Pick<Deps, "db" | "config" | "reads">,
  wikiId: string,
  input: z.input<typeof getPageInput>,
  found?: PageRow,
): Promise<PageRead> {
  deps = forReads(deps);
  const { page: rawRef, offset: askedOffset, max_chars, revision, if_changed_since } = getPageInput
    .parse(input);
  const { ref, section } = splitSection(rawRef);
  // A page the caller found is live; otherwise the version asked for, or the wiki's default.
  const version = found ? null : await resolveVersion(deps.db, wikiId, input.version);
  const current = found ??
    (version
      ? await resolveVersionPage(deps.db, version, ref)
      : await resolvePageRef(deps.db, wikiId, ref));
  const url = versionPageUrl(deps.config.baseUrl, wikiId, version?.name ?? null, current.path);
  const inVersion = version ? { version: version.name } : {};
  if (if_changed_since === current.revision && revision === undefined) {
    const content = unchangedContent(wikiId, current, url, askedOffset, inVersion);
    return { content, cut: () => content };
  }
  const text = await readPageText(deps.db, current, revision);
  // Docs tools' blocks as plain markdown: callouts as quotes, tabs and steps labelled, no JSX.
  const markdown = docsText(text.markdown);
  const total = markdown.length;
  const outline = outlineOf(markdown);
  const offset = startOffset(outline, section, askedOffset, text.path, total);
  const slice = (maxChars: number) => sliceAt(markdown, offset, maxChars);
  const asked = slice(max_chars);
  const links = text.revision !== current.revision
    ? []
    : await linksOf(deps.db, current, text, version);
  const content: PageContent = {
    wiki: wikiId,
    page: current.path,
    title: text.title,
    markdown: asked.markdown,
    revision: text.revision,
    current_revision: current.revision,
    unchanged: false,
    updated_at: text.updatedAt.toISOString(),
    url,
    links: uniqueLinks(links),
    section: sectionAt(outline, offset),
    offset,
    total_chars: total,
    truncated: asked.truncated,
    next_offset: asked.next_offset,
    ...inVersion,
  };
  await addSourceFreshness(deps.db, [content]);
  return { content, cut: (maxChars) => ({ ...content, ...slice(maxChars) }) };
}

/** The answer to `if_changed_since` naming the current revision: no text, nothing changed. */
function unchangedContent(
  wikiId: string,
  current: PageRow,
  url: string,
  offset: number,
  inVersion: { version?: string },
): PageContent {
  return {
    wiki: wikiId,
    page: current.path,
    title: current.title,
    markdown: "",
    revision: current.revision,
    current_revision: current.revision,
    unchanged: true,
    updated_at: current.updated_at.toISOString(),
    url,
    links: [],
    section: null,
    offset,
    total_chars: current.markdown.length,
    truncated: false,
    next_offset: null,
    ...inVersion,
  };
}

/** Where the slice starts: the asked offset, or the named section's (`Page#Section`). */
function startOffset(
  outline: ReturnType<typeof outlineOf>,
  section: string | null,
  askedOffset: number,
  path: string,
  total: number,
): number {
  let offset = askedOffset;
  if (section !== null && askedOffset === 0) {
    const heading = findSection(outline, section);
    if (!heading) {
      const names = outline.slice(0, 20).map((h) => `"${h.text}"`).join(", ");
      throw new AppError(
        "page_not_found",
        `Page "${path}" has no section "${section}"${names ? `; its sections: ${names}` : ""}`,
      );
    }
    offset = heading.offset;
  }
  if (offset > total) {
    throw new AppError(
      "bad_request",
      `Offset ${offset} is past the end of page "${path}" (${total} characters)`,
    );
  }
  return offset;
}

/** The slice from `offset`, ended at a line break in the last fifth of `maxChars` if any. */
function sliceAt(markdown: string, offset: number, maxChars: number) {
  const total = markdown.length;
  let end = Math.min(total, offset + maxChars);
  if (end < total) {
    const lineBreak = markdown.lastIndexOf("\n", end);
    if (lineBreak > offset + maxChars * 0.8) end = lineBreak + 1;
  }
  return {
    markdown: markdown.slice(offset, end),
    truncated: end < total,
    next_offset: end < total ? end : null,
  };
}

type LinkOut = {
  other_path: string | null;
  target: string;
  other_title: string | null;
  to_page_id: number | null;
};

/** The links of the current text: of the live page, or as its version resolves them. */
async function linksOf(
  db: Db,
  current: PageRow,
  text: PageText,
  version: Awaited<ReturnType<typeof resolveVersion>>,
): Promise<LinkOut[]> {
  return version
    ? (await versionLinksOf(db, version, text)).map((l) => ({
      other_path: null,
      target: l.page,
      other_title: l.title,
      to_page_id: l.exists ? 0 : null,
    }))
    : await selectLinksFrom(db, current.id);
}

/** The links as `get_page` lists them: each target once (case-insensitive), first kept. */
function uniqueLinks(links: LinkOut[]): PageContent["links"] {
  const seen = new Set<string>();
  return links.flatMap((l) => {
    const target = l.other_path ?? l.target;
    if (seen.has(target.toLowerCase())) return [];
    seen.add(target.toLowerCase());
    return [{ page: target, title: l.other_title, exists: l.to_page_id !== null }];
  });
}

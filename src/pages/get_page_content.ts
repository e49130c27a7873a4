import { z } from "zod";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { pageUrl } from "../wikis/urls.ts";
import { resolvePageRef } from "./read_page.ts";
import { selectLinksFrom } from "./store.ts";

/** Default and largest slice of a page returned at once (about 5k and 12k tokens). */
export const DEFAULT_MAX_CHARS = 20_000;
export const LIMIT_MAX_CHARS = 50_000;

/** Input of a page read (MCP `get_page`, REST page routes); the wiki comes from the caller. */
export const getPageInput = z.object({
  page: z.string().min(1).max(400).describe(
    "The page path from search results or links (case-insensitive, `_` equals space), or its numeric id",
  ),
  offset: z.number().int().min(0).default(0).describe(
    "Character offset to start from: the next_offset of a previous call, for long pages",
  ),
  max_chars: z.number().int().min(200).max(LIMIT_MAX_CHARS).default(DEFAULT_MAX_CHARS).describe(
    `How many characters of markdown to return at most (200-${LIMIT_MAX_CHARS})`,
  ),
});

/** A page, or a slice of a long one. */
export const pageContentSchema = z.object({
  wiki: z.string(),
  page: z.string(),
  title: z.string(),
  markdown: z.string(),
  revision: z.number().int(),
  updated_at: z.string(),
  url: z.string(),
  links: z.array(z.object({ page: z.string(), title: z.string().nullable(), exists: z.boolean() })),
  total_chars: z.number().int(),
  truncated: z.boolean().describe(
    "True when more of the page follows: call again with next_offset",
  ),
  next_offset: z.number().int().nullable(),
});
export type PageContent = z.infer<typeof pageContentSchema>;

/** Reads a page's markdown from `offset`, cut at a line break near `max_chars` when it can be. */
export async function getPageContent(
  deps: Pick<Deps, "db" | "config">,
  wikiId: string,
  input: z.input<typeof getPageInput>,
): Promise<PageContent> {
  const { page: ref, offset, max_chars } = getPageInput.parse(input);
  const page = await resolvePageRef(deps.db, wikiId, ref);
  const total = page.markdown.length;
  if (offset > total) {
    throw new AppError(
      "bad_request",
      `Offset ${offset} is past the end of page "${page.path}" (${total} characters)`,
    );
  }
  let end = Math.min(total, offset + max_chars);
  if (end < total) {
    const lineBreak = page.markdown.lastIndexOf("\n", end);
    if (lineBreak > offset + max_chars * 0.8) end = lineBreak + 1;
  }
  const links = await selectLinksFrom(deps.db, page.id);
  const seen = new Set<string>();
  return {
    wiki: wikiId,
    page: page.path,
    title: page.title,
    markdown: page.markdown.slice(offset, end),
    revision: page.revision,
    updated_at: page.updated_at.toISOString(),
    url: pageUrl(deps.config.baseUrl, wikiId, page.path),
    links: links.flatMap((l) => {
      const target = l.other_path ?? l.target;
      if (seen.has(target.toLowerCase())) return [];
      seen.add(target.toLowerCase());
      return [{ page: target, title: l.other_title, exists: l.to_page_id !== null }];
    }),
    total_chars: total,
    truncated: end < total,
    next_offset: end < total ? end : null,
  };
}

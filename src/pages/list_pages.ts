import { z } from "zod";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { decodeCursor, encodeCursor } from "../lib/cursor.ts";
import { outlineOf } from "../markdown/outline.ts";
import { cleanPath, pathKey } from "../markdown/paths.ts";
import { pageUrl } from "../lib/urls.ts";
import { resolvePageRef } from "./read_page.ts";
import { type PageHead, selectPageHashes, selectPageHeads, selectPageTexts } from "./store.ts";
import { type Db } from "../db/db.ts";

/** Input of a page listing (MCP `list_pages`, REST `GET …/pages`); the wiki comes from the caller. */
export const listPagesInput = z.object({
  prefix: z.string().max(400).optional().describe(
    "Only pages under this folder, e.g. `Guides` for `Guides/Setup` and `Guides/Tools/Search`",
  ),
  cursor: z.string().max(500).optional().describe(
    "The next_cursor of a previous call, for the next page of the list",
  ),
  limit: z.coerce.number().int().min(1).max(500).default(100).describe(
    "How many pages to return (1-500)",
  ),
  headings_of: z.string().max(400).optional().describe(
    "A page path: also return that page's headings (its outline), each with the anchor to pass as `Page#anchor` to get_page",
  ),
});

/** One heading of a page's outline. */
export const headingSchema = z.object({
  level: z.number().int(),
  text: z.string(),
  anchor: z.string(),
  section: z.string().describe("The heading path, as search results and get_page name sections"),
});

/** A page of a wiki's page list. */
export const pageListSchema = z.object({
  pages: z.array(z.object({
    page: z.string(),
    title: z.string(),
    revision: z.number().int(),
    updated_at: z.string(),
    url: z.string(),
  })),
  next_cursor: z.string().nullable(),
  outline: z.object({ page: z.string(), title: z.string(), headings: z.array(headingSchema) })
    .nullable().describe("The headings of the `headings_of` page, when asked for"),
});
export type PageList = z.infer<typeof pageListSchema>;

/** Lists a wiki's pages by path key, `limit` at a time; with one page's headings on request. */
export async function listPages(
  deps: Pick<Deps, "db" | "config">,
  wikiId: string,
  input: Partial<z.output<typeof listPagesInput>>,
): Promise<PageList> {
  // Validated at the edge (REST query, MCP input schema); internal callers may list more.
  const { prefix, cursor, headings_of } = input;
  const limit = input.limit ?? 100;
  let prefixKey: string | null = null;
  if (prefix?.trim()) {
    const clean = cleanPath(prefix);
    if (!clean) throw new AppError("bad_request", `Prefix "${prefix}" is not a page path`);
    prefixKey = pathKey(clean);
  }
  const rows = await selectPageHeads(deps.db, wikiId, {
    afterKey: cursor ? decodeCursor(cursor) : null,
    limit: limit + 1,
    prefix: prefixKey,
  });
  const page = rows.slice(0, limit);
  let outline: PageList["outline"] = null;
  if (headings_of?.trim()) {
    const target = await resolvePageRef(deps.db, wikiId, headings_of);
    outline = {
      page: target.path,
      title: target.title,
      headings: outlineOf(target.markdown).map((h) => ({
        level: h.level,
        text: h.text,
        anchor: h.anchor,
        section: h.path,
      })),
    };
  }
  return {
    pages: page.map((p) => ({
      page: p.path,
      title: p.title,
      revision: p.revision,
      updated_at: p.updated_at.toISOString(),
      url: pageUrl(deps.config.baseUrl, wikiId, p.path),
    })),
    next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.path_key) : null,
    outline,
  };
}

/** The wiki's pages by path key, without their markdown (keyset paging after `afterKey`). */
export function pageHeads(
  db: Db,
  wikiId: string,
  options: { afterKey: string | null; limit: number; prefix?: string | null },
): Promise<PageHead[]> {
  return selectPageHeads(db, wikiId, options);
}

/** Each page's content hash by path key (imports skip unchanged pages). */
export function pageHashes(db: Db, wikiId: string): Promise<Map<string, string>> {
  return selectPageHashes(db, wikiId);
}

/** A batch of a wiki's pages with their markdown, by path key after `afterKey` (exports). */
export function pageTexts(
  db: Db,
  wikiId: string,
  afterKey: string | null,
  limit: number,
): Promise<{ path: string; path_key: string; markdown: string }[]> {
  return selectPageTexts(db, wikiId, afterKey, limit);
}

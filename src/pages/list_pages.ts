import { z } from "zod";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { decodeCursor, encodeCursor } from "../lib/cursor.ts";
import { outlineOf } from "../markdown/outline.ts";
import { cleanPath, pathKey } from "../markdown/paths.ts";
import { versionPageUrl } from "../lib/urls.ts";
import { resolveVersionPage, versionPages } from "../versions/version_pages.ts";
import { resolveVersion, versionParam } from "../versions/versions.ts";
import { resolvePageRef } from "./read_page.ts";
import { type PageHead, selectPageHeads } from "./store.ts";
import { type Db } from "../db/db.ts";
import { forReads } from "../db/replicas.ts";
import { loadNavDoc } from "../navigation/space_nav_doc.ts";
import { pageTree, readingOrder } from "../markdown/page_tree.ts";

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
  version: versionParam,
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
  version: z.string().optional().describe("The version listed (absent: the live pages)"),
});
export type PageList = z.infer<typeof pageListSchema>;

/** Lists a wiki's pages by path key, `limit` at a time; with one page's headings on request. */
export async function listPages(
  deps: Pick<Deps, "db" | "config" | "reads">,
  wikiId: string,
  input: Partial<z.output<typeof listPagesInput>>,
): Promise<PageList> {
  deps = forReads(deps);
  // Validated at the edge (REST query, MCP input schema); internal callers may list more.
  const { prefix, cursor, headings_of } = input;
  const limit = input.limit ?? 100;
  let prefixKey: string | null = null;
  if (prefix?.trim()) {
    const clean = cleanPath(prefix);
    if (!clean) throw new AppError("bad_request", `Prefix "${prefix}" is not a page path`);
    prefixKey = pathKey(clean);
  }
  const version = await resolveVersion(deps.db, wikiId, input.version);
  const heads = {
    afterKey: cursor ? decodeCursor(cursor) : null,
    limit: limit + 1,
    prefix: prefixKey,
  };
  const rows = version
    ? await versionPages(deps.db, version, heads)
    : await selectPageHeads(deps.db, wikiId, heads);
  // The whole list at once: in the space's navigation order (pages, folders, landing pages,
  // as the sidebar shows them). A list in parts, or a version's, keeps path order.
  const page = !version && !cursor && !prefixKey && rows.length <= limit
    ? await inNavOrder(deps.db, wikiId, rows)
    : rows.slice(0, limit);
  let outline: PageList["outline"] = null;
  if (headings_of?.trim()) {
    const target = version
      ? await resolveVersionPage(deps.db, version, headings_of)
      : await resolvePageRef(deps.db, wikiId, headings_of);
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
      url: versionPageUrl(deps.config.baseUrl, wikiId, version?.name ?? null, p.path),
    })),
    next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.path_key) : null,
    outline,
    ...(version ? { version: version.name } : {}),
  };
}

/** Pages in the order of the space's navigation (`pageTree`, `readingOrder`). */
async function inNavOrder(db: Db, wikiId: string, rows: PageHead[]): Promise<PageHead[]> {
  const nav = await loadNavDoc(db, wikiId);
  const order = readingOrder(pageTree(rows, nav.items));
  const at = new Map(order.map((p, i) => [pathKey(p.path), i]));
  return [...rows].sort((a, b) =>
    (at.get(pathKey(a.path)) ?? Infinity) - (at.get(pathKey(b.path)) ?? Infinity)
  );
}

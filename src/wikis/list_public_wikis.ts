import { z } from "zod";
import type { Db } from "../db/db.ts";
import type { Deps } from "../deps.ts";
import { decodeCursor, encodeCursor } from "../lib/cursor.ts";
import { selectPageCount, selectPublicWikis, type WikiRow } from "./store.ts";
import { wikiUrl } from "../lib/urls.ts";

/** Input of the public wiki listing (REST `GET /public/wikis`, MCP `list_wikis`). */
export const listPublicWikisInput = z.object({
  query: z.string().trim().max(200).optional().describe(
    "Words to match in wiki ids, titles and descriptions",
  ),
  cursor: z.string().max(500).optional().describe(
    "The next_cursor of a previous call, for the next page",
  ),
  limit: z.coerce.number().int().min(1).max(200).default(50).describe(
    "How many wikis to return (1-200)",
  ),
});

/** One public wiki as listed. */
export const publicWikiSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  pages: z.number().int(),
  updated_at: z.string(),
  url: z.string(),
});

/** A public wiki as listed. */
export type PublicWiki = z.infer<typeof publicWikiSchema>;

/** A page of the listing. */
export const publicWikiListSchema = z.object({
  wikis: z.array(publicWikiSchema),
  next_cursor: z.string().nullable(),
});

/** Lists the public wikis, by id, in pages of `limit`. */
export async function listPublicWikis(
  deps: Pick<Deps, "db" | "config">,
  input: z.input<typeof listPublicWikisInput>,
): Promise<z.infer<typeof publicWikiListSchema>> {
  const { query, cursor, limit } = listPublicWikisInput.parse(input);
  const rows = await selectPublicWikis(deps.db, {
    afterId: cursor ? decodeCursor(cursor) : null,
    limit: limit + 1,
    query: query || null,
  });
  const page = rows.slice(0, limit);
  return {
    wikis: page.map((w) => ({
      id: w.id,
      title: w.title,
      description: w.description,
      pages: w.page_count,
      updated_at: w.updated_at.toISOString(),
      url: wikiUrl(deps.config.baseUrl, w.id),
    })),
    next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.id) : null,
  };
}

/** The ids of the first `limit` public wikis, by id (suggestions, searches across the hub). */
export async function listPublicWikiIds(db: Db, limit: number): Promise<string[]> {
  const rows = await selectPublicWikis(db, { afterId: null, limit, query: null });
  return rows.map((w) => w.id);
}

/** One public wiki as REST `GET /public/wikis/{id}` shows it: as listed, with its instructions. */
export async function describePublicWiki(
  deps: Pick<Deps, "db" | "config">,
  wiki: WikiRow,
): Promise<PublicWiki & { instructions: string | null }> {
  return {
    id: wiki.id,
    title: wiki.title,
    description: wiki.description,
    pages: await selectPageCount(deps.db, wiki.id),
    updated_at: wiki.updated_at.toISOString(),
    url: wikiUrl(deps.config.baseUrl, wiki.id),
    instructions: wiki.instructions,
  };
}

import { z } from "zod";
import type { Db } from "../db/db.ts";
import type { Deps } from "../deps.ts";
import { decodeCursor, encodeCursor } from "../lib/cursor.ts";
import type { WikiRow } from "../db/wiki_row.ts";
import { selectPageCount, selectPublicWikis } from "./store.ts";
import { wikiUrl } from "../lib/urls.ts";
import { forReads } from "../db/replicas.ts";
import { LATEST, versionNamesOf } from "../versions/versions.ts";

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
  versions: z.array(z.string()).describe(
    'The versions a read can name (`version`), oldest first; "latest" is the live pages',
  ),
  default_version: z.string().describe("The version reads get when they name none"),
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
  deps: Pick<Deps, "db" | "config" | "reads">,
  input: z.input<typeof listPublicWikisInput>,
): Promise<z.infer<typeof publicWikiListSchema>> {
  deps = forReads(deps);
  const { query, cursor, limit } = listPublicWikisInput.parse(input);
  const rows = await selectPublicWikis(deps.db, {
    afterId: cursor ? decodeCursor(cursor) : null,
    limit: limit + 1,
    query: query || null,
  });
  const page = rows.slice(0, limit);
  const versions = await versionNamesOf(deps.db, page.map((w) => w.id));
  return {
    wikis: page.map((w) => ({
      id: w.id,
      title: w.title,
      description: w.description,
      pages: w.page_count,
      updated_at: w.updated_at.toISOString(),
      url: wikiUrl(deps.config.baseUrl, w.id),
      ...(versions.get(w.id) ?? { versions: [LATEST], default_version: LATEST }),
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
    ...((await versionNamesOf(deps.db, [wiki.id])).get(wiki.id) ??
      { versions: [LATEST], default_version: LATEST }),
    instructions: wiki.instructions,
  };
}

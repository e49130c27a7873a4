import { z } from "zod";
import type { Deps } from "../deps.ts";
import { decodeCursor, encodeCursor } from "../lib/cursor.ts";
import { pageUrl } from "../wikis/urls.ts";
import { selectPageHeads } from "./store.ts";

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
});

/** Lists a wiki's pages by path key, `limit` at a time. */
export async function listPages(
  deps: Pick<Deps, "db" | "config">,
  wikiId: string,
  input: { cursor?: string; limit: number },
): Promise<z.infer<typeof pageListSchema>> {
  const rows = await selectPageHeads(deps.db, wikiId, {
    afterKey: input.cursor ? decodeCursor(input.cursor) : null,
    limit: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  return {
    pages: page.map((p) => ({
      page: p.path,
      title: p.title,
      revision: p.revision,
      updated_at: p.updated_at.toISOString(),
      url: pageUrl(deps.config.baseUrl, wikiId, p.path),
    })),
    next_cursor: rows.length > input.limit ? encodeCursor(page[page.length - 1]!.path_key) : null,
  };
}

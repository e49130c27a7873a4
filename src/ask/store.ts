import type { Db } from "../db/db.ts";

/** The current markdown of pages, for quoting them byte for byte with offsets. */
export function selectPageMarkdown(
  db: Db,
  pageIds: number[],
): Promise<{ id: number; markdown: string }[]> {
  return db`SELECT id, markdown FROM pages WHERE id = ANY(${pageIds}::bigint[])`;
}

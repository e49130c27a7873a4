import type { Db } from "../db/db.ts";

/** A space's stored navigation document (JSON text), or null when it has none. */
export async function selectNavText(db: Db, wikiId: string): Promise<string | null> {
  const rows = await db<{ nav: string }>`SELECT nav FROM wiki_navs WHERE wiki_id = ${wikiId}`;
  return rows[0]?.nav ?? null;
}

/** Stores a space's navigation document, replacing the one it had. */
export async function upsertNavText(db: Db, wikiId: string, nav: string): Promise<void> {
  await db`
    INSERT INTO wiki_navs (wiki_id, nav) VALUES (${wikiId}, ${nav})
    ON CONFLICT (wiki_id) DO UPDATE SET nav = EXCLUDED.nav, updated_at = now()`;
}

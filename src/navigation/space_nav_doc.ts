import type { Db } from "../db/db.ts";
import { emptyNav, type NavDoc, navDocSchema } from "../markdown/nav_doc.ts";
import { selectNavText, upsertNavText } from "./store.ts";

/** A space's navigation document; an empty one (order by path) when it has none or it is unreadable. */
export async function loadNavDoc(db: Db, wikiId: string): Promise<NavDoc> {
  const text = await selectNavText(db, wikiId);
  if (!text) return emptyNav();
  try {
    return navDocSchema.parse(JSON.parse(text));
  } catch {
    return emptyNav();
  }
}

/** Stores a space's navigation document (checked against its schema first). */
export async function saveNavDoc(db: Db, wikiId: string, nav: NavDoc): Promise<void> {
  await upsertNavText(db, wikiId, JSON.stringify(navDocSchema.parse(nav)));
}

/**
 * Stores the navigation an import brought (null: the space keeps its own), keeping what the
 * space's owners set that an import does not carry (the site's look) and adding the source
 * paths of the files it stored.
 */
export async function saveImportedNav(
  db: Db,
  wikiId: string,
  nav: NavDoc | null,
  assetPaths: Record<string, string>,
): Promise<void> {
  const before = await loadNavDoc(db, wikiId);
  const next = nav ?? before;
  await saveNavDoc(db, wikiId, {
    ...next,
    site: before.site,
    assetPaths: { ...before.assetPaths, ...nav?.assetPaths, ...assetPaths },
  });
}

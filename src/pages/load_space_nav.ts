import type { Deps } from "../deps.ts";
import { pageTree, type SpaceNav } from "../markdown/page_tree.ts";
import { loadNavDoc } from "../navigation/space_nav_doc.ts";
import { selectPageHeads } from "./store.ts";

/** Pages a wiki's navigation lists at most; search reaches the rest. */
export const NAV_PAGES = 2_000;

/**
 * Loads the page tree of a wiki: the first `NAV_PAGES` pages by path, in the order of the
 * space's navigation (pages it does not name after their siblings; by path without one). The
 * web mount hands it to the web kit's frame (`withSpaceNav`).
 */
export async function loadSpaceNav(deps: Pick<Deps, "db">, wikiId: string): Promise<SpaceNav> {
  const [heads, doc] = await Promise.all([
    selectPageHeads(deps.db, wikiId, { afterKey: null, limit: NAV_PAGES + 1 }),
    loadNavDoc(deps.db, wikiId),
  ]);
  const listed = heads.slice(0, NAV_PAGES);
  return {
    tree: pageTree(listed, doc.items),
    truncated: heads.length > NAV_PAGES,
    pageCount: listed.length,
    doc,
    titles: new Map(listed.map((h) => [h.path, h.title])),
  };
}

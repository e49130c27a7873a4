import type { Deps } from "../../deps.ts";
import type { NavDoc } from "../../navigation/nav_doc.ts";
import { loadNavDoc } from "../../navigation/space_nav_doc.ts";
import { pageTree, type TreeNode } from "../../navigation/page_tree.ts";
import { selectPageHeads } from "../../pages/mod.ts";

/** Pages a wiki's navigation lists at most; search reaches the rest. */
export const NAV_PAGES = 2_000;

/** A wiki's page tree as its sidebar, index and previous/next links show it. */
export type SpaceNav = { tree: TreeNode[]; truncated: boolean; pageCount: number; doc: NavDoc };

/**
 * Loads the page tree of a wiki: the first `NAV_PAGES` pages by path, in the order of the
 * space's navigation (pages it does not name after their siblings; by path without one).
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
  };
}

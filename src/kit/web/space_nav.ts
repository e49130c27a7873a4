import type { Deps } from "../../deps.ts";
import { pageHeads } from "../../pages/list_pages.ts";
import { pageTree, type TreeNode } from "./page_tree.ts";

/** Pages a wiki's navigation lists at most; search reaches the rest. */
export const NAV_PAGES = 2_000;

/** A wiki's page tree as its sidebar, index and previous/next links show it. */
export type SpaceNav = { tree: TreeNode[]; truncated: boolean; pageCount: number };

/** Loads the page tree of a wiki: the first `NAV_PAGES` pages by path, nested by folder. */
export async function loadSpaceNav(deps: Pick<Deps, "db">, wikiId: string): Promise<SpaceNav> {
  const heads = await pageHeads(deps.db, wikiId, { afterKey: null, limit: NAV_PAGES + 1 });
  const listed = heads.slice(0, NAV_PAGES);
  return {
    tree: pageTree(listed),
    truncated: heads.length > NAV_PAGES,
    pageCount: listed.length,
  };
}

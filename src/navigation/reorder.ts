import type { TreeNode } from "../markdown/page_tree.ts";
import type { NavItem } from "../markdown/nav_doc.ts";

/**
 * The navigation a tree shows, as items to store: every page and folder in the order shown,
 * folder titles and landing pages kept; a page's title is stored only when the navigation
 * gives it one of its own (else the page's own title keeps showing as it changes).
 */
export function treeToItems(nodes: TreeNode[], pageTitles: Map<string, string>): NavItem[] {
  return nodes.map((node): NavItem => {
    if (node.children.length === 0 && node.folder === undefined && node.title !== null) {
      const own = pageTitles.get(node.path);
      return own === node.title ? { page: node.path } : { page: node.path, title: node.title };
    }
    return {
      title: node.title ?? node.name,
      ...(node.title !== null ? { page: node.path } : {}),
      ...(node.folder !== undefined ? { folder: node.folder } : {}),
      items: treeToItems(node.children, pageTitles),
    };
  });
}

/** `0.2.1`: the node at index 1 of the node at index 2 of the top level. */
export function parseAt(at: string): number[] | null {
  if (!/^\d{1,4}(\.\d{1,4}){0,20}$/.test(at)) return null;
  return at.split(".").map(Number);
}

/**
 * Moves the item at `at` one place up or down among its siblings. Returns null when it
 * cannot move (first or last already, or no such item).
 */
export function moveItem(items: NavItem[], at: number[], move: "up" | "down"): NavItem[] | null {
  const copy = structuredClone(items);
  let list = copy;
  for (const index of at.slice(0, -1)) {
    const item = list[index];
    if (!item || !("items" in item)) return null;
    list = item.items;
  }
  const from = at[at.length - 1]!;
  const to = move === "up" ? from - 1 : from + 1;
  if (from >= list.length || to < 0 || to >= list.length) return null;
  [list[from], list[to]] = [list[to]!, list[from]!];
  return copy;
}

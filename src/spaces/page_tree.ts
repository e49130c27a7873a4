import { pathKey } from "../markdown/paths.ts";

/** A folder or a page of a wiki's tree; a folder may be a page too (`Guides` and `Guides/Setup`). */
export type TreeNode = {
  name: string;
  path: string;
  /** The page's title, or null for a folder without a page of its own. */
  title: string | null;
  children: TreeNode[];
};

/** Nests pages by their path segments, each level sorted by name (case-insensitive). */
export function pageTree(pages: { path: string; title: string }[]): TreeNode[] {
  const root: TreeNode = { name: "", path: "", title: null, children: [] };
  const nodes = new Map<string, TreeNode>();
  for (const page of pages) {
    let node = root;
    let path = "";
    for (const segment of page.path.split("/")) {
      path = path ? `${path}/${segment}` : segment;
      const key = pathKey(path);
      let child = nodes.get(key);
      if (!child) {
        child = { name: segment, path, title: null, children: [] };
        nodes.set(key, child);
        node.children.push(child);
      }
      node = child;
    }
    node.title = page.title;
    node.path = page.path;
  }
  const sort = (list: TreeNode[]) => {
    list.sort((a, b) => pathKey(a.name).localeCompare(pathKey(b.name)));
    for (const node of list) sort(node.children);
  };
  sort(root.children);
  return root.children;
}

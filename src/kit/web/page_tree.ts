import { pathKey } from "../../markdown/paths.ts";

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

/** The pages of a tree in reading order: each folder's own page before what is inside it. */
export function readingOrder(nodes: TreeNode[]): { path: string; title: string }[] {
  const out: { path: string; title: string }[] = [];
  const walk = (list: TreeNode[]) => {
    for (const node of list) {
      if (node.title !== null) out.push({ path: node.path, title: node.title });
      walk(node.children);
    }
  };
  walk(nodes);
  return out;
}

/** The pages before and after `path` in reading order (null at either end, or off the tree). */
export function neighbours(
  nodes: TreeNode[],
  path: string,
): {
  previous: { path: string; title: string } | null;
  next: { path: string; title: string } | null;
} {
  const order = readingOrder(nodes);
  const key = pathKey(path);
  const at = order.findIndex((p) => pathKey(p.path) === key);
  if (at < 0) return { previous: null, next: null };
  return { previous: order[at - 1] ?? null, next: order[at + 1] ?? null };
}

/** The node of a path in a tree (a page or a folder), or null. */
export function findNode(nodes: TreeNode[], path: string): TreeNode | null {
  const key = pathKey(path);
  let list = nodes;
  let prefix = "";
  for (const segment of path.split("/")) {
    prefix = prefix ? `${prefix}/${segment}` : segment;
    const node = list.find((n) => pathKey(n.path) === pathKey(prefix));
    if (!node) return null;
    if (pathKey(node.path) === key) return node;
    list = node.children;
  }
  return null;
}

import { folderOf, pathKey } from "./paths.ts";
import { folderTitle, isGroup, isLink, type NavDoc, type NavItem } from "./nav_doc.ts";

/** A folder or a page of a wiki's tree; a folder may be a page too (`Guides` and `Guides/Setup`). */
export type TreeNode = {
  name: string;
  path: string;
  /** The page's title, or null for a folder without a page of its own. */
  title: string | null;
  children: TreeNode[];
  /** The folder (path key) a folder node stands for, when it is one. */
  folder?: string;
};

type PageHead = { path: string; title: string };

/**
 * A wiki's page tree as its sidebar, index and previous/next links show it: its first pages
 * (`truncated` when it has more) in the order of its navigation document (`doc`), with each
 * page's own title by path (`titles`: a title the navigation gives may differ).
 */
export type SpaceNav = {
  tree: TreeNode[];
  truncated: boolean;
  pageCount: number;
  doc: NavDoc;
  titles: Map<string, string>;
};

/** The last segment of a path. */
function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Whether a page is its folder's landing page by name (`README`, `index`). */
export function isLandingName(path: string): boolean {
  return /^(readme|index)$/i.test(baseName(path));
}

/** Whether a root page is the wiki's home (pinned first when no navigation says otherwise). */
function isHome(node: TreeNode): boolean {
  return node.children.length === 0 && /^(home|readme|index)$/i.test(node.path);
}

/**
 * The page tree of a wiki. With a navigation (`items`), its order, titles and landing pages;
 * pages it does not name go after their siblings in the folder they sit in. Without one,
 * pages nest by their path segments, each level sorted by name (case-insensitive), a folder's
 * `README`/`index` is its landing page, and the home page comes first.
 */
export function pageTree(pages: PageHead[], items: NavItem[] = []): TreeNode[] {
  const byKey = new Map(pages.map((p) => [pathKey(p.path), p]));
  const used = new Set<string>();
  const tree = fromNav(items, byKey, used);
  const rest = pages.filter((p) => !used.has(pathKey(p.path)));
  const loose: PageHead[] = [];
  for (const page of rest) {
    const home = findFolder(tree, pathKey(folderOf(page.path)));
    if (!home) {
      loose.push(page);
      continue;
    }
    if (isLandingName(page.path) && home.title === null) {
      home.path = page.path;
      home.title = home.name;
    } else home.children.push({ name: baseName(page.path), path: page.path, ...leaf(page) });
  }
  const pathTree = byPath(loose);
  return tree.length === 0 ? pathTree : [...tree, ...pathTree];
}

function leaf(page: PageHead): { title: string; children: TreeNode[] } {
  return { title: page.title, children: [] };
}

/** The tree a navigation describes (pages it names that the wiki lacks are left out). */
function fromNav(items: NavItem[], byKey: Map<string, PageHead>, used: Set<string>): TreeNode[] {
  const out: TreeNode[] = [];
  for (const item of items) {
    if (isLink(item)) continue;
    const key = item.page ? pathKey(item.page) : null;
    const page = key && !used.has(key) ? byKey.get(key) : undefined;
    if (page) used.add(key!);
    if (!isGroup(item)) {
      if (page) {
        out.push({
          name: baseName(page.path),
          path: page.path,
          title: item.title ?? page.title,
          children: [],
        });
      }
      continue;
    }
    const children = fromNav(item.items, byKey, used);
    if (!page && children.length === 0 && !item.folder) continue;
    const folder = item.folder !== undefined
      ? pathKey(item.folder)
      : page && isLandingName(page.path)
      ? pathKey(folderOf(page.path))
      : commonFolder(children);
    out.push({
      name: item.title,
      path: page?.path ?? item.folder ?? "",
      title: page ? item.title : null,
      children,
      ...(folder ? { folder } : {}),
    });
  }
  return out;
}

/** The folder all of a group's pages sit in, when they share one. */
function commonFolder(children: TreeNode[]): string | undefined {
  const folders = new Set(children.map((c) => c.folder ?? pathKey(folderOf(c.path))));
  return folders.size === 1 ? [...folders][0] || undefined : undefined;
}

/** The deepest folder node of `key` or of a folder holding it. */
function findFolder(nodes: TreeNode[], key: string): TreeNode | null {
  if (!key) return null;
  let found: TreeNode | null = null;
  const walk = (list: TreeNode[]) => {
    for (const node of list) {
      if (node.folder === key) found = node;
      walk(node.children);
    }
  };
  walk(nodes);
  if (found) return found;
  return findFolder(nodes, folderOf(key));
}

/** Pages nested by path segment: landing pages lifted onto their folders, Home first. */
function byPath(pages: PageHead[]): TreeNode[] {
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
  const tidy = (list: TreeNode[]) => {
    list.sort((a, b) => pathKey(a.name).localeCompare(pathKey(b.name)));
    for (const node of list) {
      if (node.children.length === 0) continue;
      node.folder = pathKey(node.path);
      tidy(node.children);
      const landing = node.title === null
        ? node.children.find((c) => c.children.length === 0 && isLandingName(c.path))
        : undefined;
      if (landing) {
        node.children = node.children.filter((c) => c !== landing);
        node.path = landing.path;
        node.title = landing.title;
      } else if (node.title === null) node.name = folderTitle(node.name);
    }
  };
  tidy(root.children);
  const home = root.children.findIndex(isHome);
  if (home > 0) root.children.unshift(...root.children.splice(home, 1));
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

/**
 * The folders of the tree that hold `path`, outermost first (its breadcrumb): a landing page's
 * own folder is not among them.
 */
export function trail(nodes: TreeNode[], path: string): TreeNode[] {
  const key = pathKey(path);
  const walk = (list: TreeNode[], above: TreeNode[]): TreeNode[] | null => {
    for (const node of list) {
      if (pathKey(node.path) === key && node.title !== null) return above;
      const found = walk(node.children, [...above, node]);
      if (found) return found;
    }
    return null;
  };
  return walk(nodes, []) ?? [];
}

/** The node of a path in a tree (a page, or a folder by its folder path), or null. */
export function findNode(nodes: TreeNode[], path: string): TreeNode | null {
  const key = pathKey(path);
  for (const node of nodes) {
    if (pathKey(node.path) === key || node.folder === key) return node;
    const found = findNode(node.children, path);
    if (found) return found;
  }
  return null;
}

import { folderOf, pathKey } from "../../markdown/paths.ts";
import { folderTitle, type NavItem } from "../../markdown/nav_doc.ts";

/** What a page's front matter says of its place (`sidebar_position`, `order`, `nav_order`). */
export type PagePlace = { path: string; position?: number; label?: string };

/** What a folder's `_category_.json` says (label, position, landing page). */
export type FolderPlace = { label?: string; position?: number; page?: string };

/**
 * The navigation of a folder tree from where its pages and folders say they go: by position,
 * then by name; a folder's `README`/`index` (or its category's page) as its landing page.
 * Folders are titled by their category label, else by their name.
 */
export function autogenerate(
  pages: PagePlace[],
  folders: Map<string, FolderPlace>,
  dir = "",
): NavItem[] {
  type Entry = { name: string; position: number; item: NavItem };
  const entries: Entry[] = [];
  const dirKey = pathKey(dir);
  const here = pages.filter((p) => pathKey(folderOf(p.path)) === dirKey);
  const landing = folders.get(dirKey)?.page;
  for (const page of here) {
    if (dir && (pathKey(page.path) === pathKey(landing ?? "") || isIndex(page.path))) continue;
    const item: NavItem = page.label ? { page: page.path, title: page.label } : { page: page.path };
    entries.push({ name: page.path, position: page.position ?? Infinity, item });
  }
  const subdirs = new Set<string>();
  for (const page of pages) {
    const folder = folderOf(page.path);
    if (pathKey(folder).startsWith(dirKey ? `${dirKey}/` : "") && pathKey(folder) !== dirKey) {
      const rest = folder.slice(dir ? dir.length + 1 : 0);
      subdirs.add(dir ? `${dir}/${rest.split("/")[0]}` : rest.split("/")[0]!);
    }
  }
  for (const sub of subdirs) {
    const place = folders.get(pathKey(sub)) ?? {};
    const page = place.page ??
      pages.find((p) => pathKey(folderOf(p.path)) === pathKey(sub) && isIndex(p.path))?.path;
    const name = sub.slice(sub.lastIndexOf("/") + 1);
    entries.push({
      name: sub,
      position: place.position ?? Infinity,
      item: {
        title: place.label ?? folderTitle(name),
        ...(page ? { page } : {}),
        folder: sub,
        items: autogenerate(pages, folders, sub),
      },
    });
  }
  entries.sort((a, b) => a.position - b.position || pathKey(a.name).localeCompare(pathKey(b.name)));
  return entries.map((e) => e.item);
}

function isIndex(path: string): boolean {
  return /^(readme|index)$/i.test(path.slice(path.lastIndexOf("/") + 1));
}

/** A front matter's position and label for the sidebar, when it gives them. */
export function placeOf(path: string, data: Record<string, unknown>): PagePlace {
  const raw = data.sidebar_position ?? data.order ?? data.nav_order ?? data.weight;
  const position = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw) : NaN;
  const label = data.sidebar_label ?? data.nav_title;
  return {
    path,
    ...(Number.isFinite(position) ? { position } : {}),
    ...(typeof label === "string" && label.trim() ? { label: label.trim() } : {}),
  };
}

import { z } from "zod";

/** The formats a space's files can come in, detected from the files (`readDocsLayout`). */
export const DOCS_FORMATS = [
  "gitbook",
  "mkdocs",
  "docusaurus",
  "mintlify",
  "notion",
  "folder",
  "app",
] as const;
export type DocsFormat = typeof DOCS_FORMATS[number];

/**
 * One entry of a space's navigation: a page (by path), a group (a folder, with its title, its
 * landing page and what is in it) or a link out of the wiki.
 */
export type NavItem =
  | { page: string; title?: string }
  | { title: string; page?: string; folder?: string; items: NavItem[] }
  | { title: string; href: string };

const navItem: z.ZodType<NavItem> = z.lazy(() =>
  z.union([
    z.object({ page: z.string(), title: z.string().optional() }).strict(),
    z.object({
      title: z.string(),
      page: z.string().optional(),
      folder: z.string().optional(),
      items: z.array(navItem),
    }).strict(),
    z.object({ title: z.string(), href: z.string() }).strict(),
  ])
);

/** How a public space looks to its readers (space settings). */
export const siteSchema = z.object({
  title: z.string().max(200).optional(),
  logo: z.string().max(500).optional(),
  accent: z.string().regex(/^#[0-9a-fA-F]{6}$/).optional(),
  links: z.array(z.object({ title: z.string().max(100), href: z.string().max(500) })).max(8)
    .optional(),
});
export type SiteLook = z.infer<typeof siteSchema>;

/** A space's navigation as stored (one JSON document a space). */
export const navDocSchema = z.object({
  format: z.enum(DOCS_FORMATS),
  items: z.array(navItem),
  /** True once an owner reordered in the app: the export then writes the order as SUMMARY.md. */
  edited: z.boolean().default(false),
  /** Where the pages sat in the source (`docs/`), so the export puts them back there. */
  root: z.string().default(""),
  /** The source's nav and config files as written (path in the source → text). */
  files: z.record(z.string(), z.string()).default({}),
  /** Pages whose file was not `<path>.md` (`intro.mdx`), by path key → file path under root. */
  pageFiles: z.record(z.string(), z.string()).default({}),
  /** Files (images) stored flat in the wiki, by their stored name → their path in the source. */
  assetPaths: z.record(z.string(), z.string()).default({}),
  site: siteSchema.default({}),
});
export type NavDoc = z.infer<typeof navDocSchema>;

/** An empty navigation: order by path, no files. */
export function emptyNav(format: DocsFormat = "app"): NavDoc {
  return {
    format,
    items: [],
    edited: false,
    root: "",
    files: {},
    pageFiles: {},
    assetPaths: {},
    site: {},
  };
}

/** Whether an item is a group (folder). */
export function isGroup(item: NavItem): item is Extract<NavItem, { items: NavItem[] }> {
  return "items" in item;
}

/** Whether an item is a link out of the wiki. */
export function isLink(item: NavItem): item is Extract<NavItem, { href: string }> {
  return "href" in item;
}

/** The page paths a navigation names, in reading order. */
export function navPages(items: NavItem[]): string[] {
  const out: string[] = [];
  const walk = (list: NavItem[]) => {
    for (const item of list) {
      if (isLink(item)) continue;
      if (item.page) out.push(item.page);
      if (isGroup(item)) walk(item.items);
    }
  };
  walk(items);
  return out;
}

/** A folder name as a reader would title it: `getting-started` → `Getting started`. */
export function folderTitle(name: string): string {
  const words = name.replace(/^\d+[-_. ]+/, "").replace(/[-_]+/g, " ").trim();
  if (!words) return name;
  return words === words.toLowerCase() ? words[0]!.toUpperCase() + words.slice(1) : words;
}

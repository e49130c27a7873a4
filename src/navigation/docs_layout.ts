import { splitFrontMatter } from "../markdown/front_matter.ts";
import { cleanPath, folderOf, pathKey } from "../markdown/paths.ts";
import { autogenerate, type FolderPlace, type PagePlace, placeOf } from "./formats/autogenerate.ts";
import { parseSidebars } from "./formats/docusaurus.ts";
import { gitbookConfig, parseSummary } from "./formats/gitbook.ts";
import { parseMintlify } from "./formats/mintlify.ts";
import { parseMkdocs } from "./formats/mkdocs.ts";
import { NOTION_ID, rewriteNotionLinks, stripNotionIds } from "./formats/notion.ts";
import { type DocsFormat, emptyNav, type NavDoc, type NavItem } from "../markdown/nav_doc.ts";

/** The files of a source (a folder, a zip, a Git tree): their names, and a way to read one. */
export type DocsFiles = { names: string[]; read(name: string): Promise<Uint8Array | null> };

/** How a source's files become a space: which files are pages at which paths, and its order. */
export type DocsLayout = {
  format: DocsFormat;
  /** Each page file of the source → its page path. Files not in it are not pages. */
  pages: Map<string, string>;
  /** The navigation to store, or null when the source says nothing of order. */
  nav: NavDoc | null;
  /** The markdown of a page as the space keeps it (Notion's links lose their ids). */
  rewrite(markdown: string, file: string): string;
  /** The page path a file would have by this layout (a file gone since, for renames). */
  pathOf(file: string): string | null;
};

export const PAGE_FILE = /\.(md|markdown|mdx)$/i;
const NAV_FILE =
  /(^|\/)(SUMMARY\.md|\.gitbook\.yaml|mkdocs\.ya?ml|sidebars\.[cm]?[jt]s|_category_\.(json|ya?ml)|docs\.json|mint\.json)$/i;

/** Whether a source file matters to a docs import: a page, or a nav or config file. */
export function isDocsFile(name: string): boolean {
  return PAGE_FILE.test(name) || NAV_FILE.test(name);
}

const utf8 = new TextDecoder();

/**
 * The one reader of a source's shape, for imports and Git sync alike: detects the format from
 * the files (GitBook's `SUMMARY.md`/`.gitbook.yaml`, `mkdocs.yml`, Docusaurus's `sidebars.js`
 * or `_category_.json`, Mintlify's `docs.json`/`mint.json`, a Notion export's hex ids, else a
 * plain folder), reads its navigation as data (nothing is run), and names each page file's path.
 */
export async function readDocsLayout(files: DocsFiles): Promise<DocsLayout> {
  const found = await detectLayout(files);
  const root = found.nav?.root ?? "";
  const pathOf = (file: string) => {
    if (!PAGE_FILE.test(file) || !file.startsWith(root) || NAV_FILE.test(file)) return null;
    const path = file.slice(root.length).replace(PAGE_FILE, "");
    return cleanPath(found.format === "notion" ? stripNotionIds(path) : path);
  };
  return { ...found, pathOf };
}

async function detectLayout(files: DocsFiles): Promise<Omit<DocsLayout, "pathOf">> {
  const names = new Set(files.names);
  const text = async (name: string) => {
    const bytes = names.has(name) ? await files.read(name) : null;
    return bytes ? utf8.decode(bytes).replace(/^\uFEFF/, "") : null;
  };
  const has = (name: string) => names.has(name);
  const gitbookYaml = await text(".gitbook.yaml");
  if (gitbookYaml !== null || has("SUMMARY.md")) return await gitbook(files, gitbookYaml, text);
  const mkdocs = (await text("mkdocs.yml")) ?? (await text("mkdocs.yaml"));
  if (mkdocs !== null) return await mkdocsLayout(files, mkdocs, text);
  const mint = (await text("docs.json")) ?? (await text("mint.json"));
  if (mint !== null) return await mintlify(files, mint, text);
  const sidebarsFile = files.names.find((n) => /^sidebars\.[cm]?[jt]s$/i.test(n));
  if (sidebarsFile || files.names.some((n) => /(^|\/)_category_\.json$/i.test(n))) {
    return await docusaurus(files, sidebarsFile ? await text(sidebarsFile) : null, text);
  }
  if (files.names.some((n) => PAGE_FILE.test(n) && NOTION_ID.test(n))) return notion(files);
  return await plainFolder(files, text);
}

type Text = (name: string) => Promise<string | null>;

/** Page files under `root`, each with its page path (the file path under root, less extension). */
function pagesUnder(files: DocsFiles, root: string, skip: (name: string) => boolean) {
  const pages = new Map<string, string>();
  for (const name of files.names) {
    if (!PAGE_FILE.test(name) || !name.startsWith(root) || skip(name)) continue;
    const path = cleanPath(name.slice(root.length).replace(PAGE_FILE, ""));
    if (path) pages.set(name, path);
  }
  return pages;
}

/** Resolves a nav's file reference (relative to `root`, with or without extension) to a page. */
function resolver(pages: Map<string, string>, root: string) {
  const byKey = new Map<string, string>();
  for (const [name, path] of pages) {
    byKey.set(pathKey(name.slice(root.length)), path);
    byKey.set(pathKey(path), path);
  }
  return (ref: string): string | null => {
    let target = ref.split("#")[0]!.replace(/^\.?\//, "");
    try {
      target = decodeURIComponent(target);
    } catch {
      // kept as written
    }
    return byKey.get(pathKey(target)) ?? byKey.get(pathKey(target.replace(PAGE_FILE, ""))) ??
      byKey.get(pathKey(`${target.replace(/\/$/, "")}/index`)) ??
      byKey.get(pathKey(`${target.replace(/\/$/, "")}/README`)) ?? null;
  };
}

/** The stored navigation of a layout: items, root, the nav files as written, odd page files. */
async function navDoc(
  format: DocsFormat,
  items: NavItem[],
  root: string,
  pages: Map<string, string>,
  files: DocsFiles,
  text: Text,
): Promise<NavDoc> {
  const kept: Record<string, string> = {};
  for (const name of files.names) {
    if (!NAV_FILE.test(name)) continue;
    const body = await text(name);
    if (body !== null) kept[name] = body;
  }
  const pageFiles: Record<string, string> = {};
  for (const [name, path] of pages) {
    const file = name.slice(root.length);
    if (file !== `${path}.md`) pageFiles[pathKey(path)] = file;
  }
  return { ...emptyNav(format), items, root, files: kept, pageFiles };
}

const same = (markdown: string) => markdown;

type Found = Omit<DocsLayout, "pathOf">;

async function gitbook(files: DocsFiles, yaml: string | null, text: Text): Promise<Found> {
  const config = gitbookConfig(yaml);
  const summaryFile = `${config.root}${config.summary}`;
  const pages = pagesUnder(files, config.root, (n) => n === summaryFile);
  const summary = await text(summaryFile);
  const items = summary ? parseSummary(summary, resolver(pages, config.root)) : [];
  const nav = await navDoc("gitbook", items, config.root, pages, files, text);
  return { format: "gitbook", pages, nav, rewrite: same };
}

async function mkdocsLayout(files: DocsFiles, yaml: string, text: Text): Promise<Found> {
  const probe = parseMkdocs(yaml, () => null);
  const pages = pagesUnder(files, probe.root, () => false);
  const { items } = parseMkdocs(yaml, resolver(pages, probe.root));
  const order = items ?? autogenerate(await places(pages, text), new Map());
  const nav = await navDoc("mkdocs", order, probe.root, pages, files, text);
  return { format: "mkdocs", pages, nav, rewrite: same };
}

async function mintlify(files: DocsFiles, json: string, text: Text): Promise<Found> {
  const pages = pagesUnder(files, "", (n) => /(^|\/)(node_modules|snippets)\//.test(n));
  const items = parseMintlify(json, resolver(pages, "")) ?? [];
  const nav = await navDoc("mintlify", items, "", pages, files, text);
  return { format: "mintlify", pages, nav, rewrite: same };
}

async function docusaurus(
  files: DocsFiles,
  sidebars: string | null,
  text: Text,
): Promise<Found> {
  const root = files.names.some((n) => n.startsWith("docs/") && PAGE_FILE.test(n)) ? "docs/" : "";
  const pages = pagesUnder(files, root, () => false);
  const placed = await places(pages, text);
  const folders = await categories(files, root, text, resolver(pages, root));
  const autogen = (dir: string) => autogenerate(placed, folders, dir);
  const items =
    (sidebars ? parseSidebars(sidebars, byDocId(pages, root, placed), autogen) : null) ??
      autogen("");
  const nav = await navDoc("docusaurus", items, root, pages, files, text);
  return { format: "docusaurus", pages, nav, rewrite: same };
}

/** Docusaurus doc ids: the path without extension, or the front matter's `id` in its folder. */
function byDocId(
  pages: Map<string, string>,
  root: string,
  placed: (PagePlace & { id?: string })[],
) {
  const resolve = resolver(pages, root);
  const ids = new Map(placed.flatMap((p) => p.id ? [[pathKey(p.id), p.path] as const] : []));
  return (id: string) => ids.get(pathKey(id)) ?? resolve(id);
}

/** Each folder's `_category_.json`: its label, position and landing page. */
async function categories(
  files: DocsFiles,
  root: string,
  text: Text,
  resolve: (ref: string) => string | null,
): Promise<Map<string, FolderPlace>> {
  const out = new Map<string, FolderPlace>();
  for (const name of files.names) {
    if (!name.startsWith(root) || !/(^|\/)_category_\.json$/i.test(name)) continue;
    try {
      const data = JSON.parse((await text(name)) ?? "{}") as Record<string, unknown>;
      const folder = folderOf(name.slice(root.length));
      const link = (data.link ?? {}) as Record<string, unknown>;
      const page = link.type === "doc" && typeof link.id === "string" ? resolve(link.id) : null;
      out.set(pathKey(folder), {
        ...(typeof data.label === "string" ? { label: data.label } : {}),
        ...(typeof data.position === "number" ? { position: data.position } : {}),
        ...(page ? { page } : {}),
      });
    } catch {
      // An unreadable category file: the folder is ordered by name.
    }
  }
  return out;
}

/** Where each page's front matter places it (position, label, Docusaurus id). */
async function places(
  pages: Map<string, string>,
  text: Text,
): Promise<(PagePlace & { id?: string })[]> {
  const out: (PagePlace & { id?: string })[] = [];
  for (const [name, path] of pages) {
    let data: Record<string, unknown> = {};
    try {
      data = splitFrontMatter((await text(name)) ?? "").data;
    } catch {
      // Malformed front matter: no place; the import reports the page.
    }
    const id = typeof data.id === "string" ? data.id : undefined;
    const folder = folderOf(path);
    out.push({ ...placeOf(path, data), ...(id ? { id: folder ? `${folder}/${id}` : id } : {}) });
  }
  return out;
}

function notion(files: DocsFiles): Found {
  const pages = new Map<string, string>();
  for (const name of files.names) {
    if (!PAGE_FILE.test(name)) continue;
    const path = cleanPath(stripNotionIds(name.replace(PAGE_FILE, "")));
    if (path) pages.set(name, path);
  }
  return {
    format: "notion",
    pages,
    nav: { ...emptyNav("notion") },
    rewrite: (markdown) => rewriteNotionLinks(markdown),
  };
}

async function plainFolder(files: DocsFiles, text: Text): Promise<Found> {
  const pages = pagesUnder(files, "", () => false);
  const placed = await places(pages, text);
  // Only a folder whose pages say where they go gets a stored order; else order by path.
  const ordered = placed.some((p) => p.position !== undefined || p.label !== undefined);
  const items = ordered ? autogenerate(placed, new Map()) : [];
  const doc = await navDoc("folder", items, "", pages, files, text);
  const nav = ordered || Object.keys(doc.pageFiles).length > 0 ? doc : null;
  return { format: "folder", pages, nav, rewrite: same };
}

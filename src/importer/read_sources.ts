import { cleanPath } from "../markdown/paths.ts";
import { type DocsFiles, isDocsFile, readDocsLayout } from "../navigation/docs_layout.ts";
import type { NavDoc } from "../markdown/nav_doc.ts";
import { inflateZip, ZIP_LIMITS, type ZipLimits } from "./read_zip.ts";

/** One page to import, or the reason a file could not be read. */
export type SourcePage =
  | { name: string; path: string; markdown: string; title?: string }
  | { name: string; error: string };

/** Largest archive or JSONL file read, in bytes. */
export const MAX_SOURCE_BYTES = 512 * 1024 * 1024;

const MARKDOWN_FILE = /\.(md|markdown|mdx)$/i;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads the pages of a folder of markdown files, a `.zip` of one, or a `pages.jsonl`
 * (`{"path", "title"?, "markdown"}` a line). A page's path is its file path without `.md`.
 * Unreadable entries come back with an `error`; an unreadable source as a whole throws.
 */
export async function readSources(source: string): Promise<SourcePage[]> {
  return (await readSourceSet(source)).pages;
}

/** A source's pages and the navigation its files carry (null when they say nothing of order). */
export type SourceSet = { pages: SourcePage[]; nav: NavDoc | null };

/**
 * Reads a source as `readSources` does, with its shape: the format detected from its files
 * (`readDocsLayout`), `.mdx` pages, and the navigation of its nav files or front matter.
 */
export async function readSourceSet(source: string): Promise<SourceSet> {
  const info = await Deno.stat(source);
  if (info.isDirectory) return await readFolder(source);
  if (info.size > MAX_SOURCE_BYTES) {
    throw new Error(`"${source}" is larger than ${MAX_SOURCE_BYTES} bytes`);
  }
  if (/\.zip$/i.test(source)) return await readDocsZip(await Deno.readFile(source));
  if (/\.jsonl$/i.test(source)) {
    return { pages: readJsonl(await Deno.readTextFile(source)), nav: null };
  }
  if (MARKDOWN_FILE.test(source)) {
    const name = source.split("/").pop()!;
    return { pages: [toPage(name, name, await Deno.readFile(source))], nav: null };
  }
  throw new Error(`"${source}" is not a folder, a .zip, a .jsonl or a markdown file`);
}

async function readFolder(root: string): Promise<SourceSet> {
  const names: string[] = [];
  const walk = async (dir: string, rel: string) => {
    const entries = [];
    for await (const entry of Deno.readDir(dir)) entries.push(entry);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.name === "node_modules") continue;
      if (entry.name.startsWith(".") && entry.name !== ".gitbook.yaml") continue;
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(`${dir}/${entry.name}`, relPath);
      else if (entry.isFile && isDocsFile(relPath)) names.push(relPath);
    }
  };
  await walk(root, "");
  return await readDocsSet({
    names,
    read: async (name) => await Deno.readFile(`${root}/${name}`),
  });
}

/**
 * The pages of a source's files at the paths its layout gives them (`readDocsLayout`), with
 * its navigation. A file that cannot be read is reported by name.
 */
export async function readDocsSet(files: DocsFiles): Promise<SourceSet> {
  const layout = await readDocsLayout(files);
  const pages: SourcePage[] = [];
  for (const [name, path] of layout.pages) {
    try {
      const bytes = await files.read(name);
      if (!bytes) continue;
      const page = toPage(name, `${path}.md`, bytes);
      if ("markdown" in page) page.markdown = layout.rewrite(page.markdown, name);
      pages.push(page);
    } catch (error) {
      pages.push({ name, error: `cannot be read: ${(error as Error).message}` });
    }
  }
  return { pages, nav: layout.nav };
}

/**
 * A zip's pages and navigation (`readDocsSet`); a single top folder holding everything is
 * dropped, and entries are inflated within `limits` (a zip bomb is refused, not unpacked).
 */
export async function readDocsZip(
  bytes: Uint8Array,
  limits: ZipLimits = ZIP_LIMITS,
): Promise<SourceSet> {
  const files = inflateZip(bytes, (n) => isDocsFile(n) && !n.startsWith("__MACOSX/"), limits);
  const all = [...files.keys()].sort();
  const tops = new Set(all.map((n) => n.includes("/") ? n.slice(0, n.indexOf("/")) : ""));
  const strip = tops.size === 1 && !tops.has("") ? [...tops][0]!.length + 1 : 0;
  const byName = new Map(all.map((n) => [n.slice(strip), files.get(n)!]));
  const set = await readDocsSet({
    names: [...byName.keys()],
    read: (name) => Promise.resolve(byName.get(name) ?? null),
  });
  // Reported by their names in the archive, as the person who made it knows them.
  const top = strip ? all[0]!.slice(0, strip) : "";
  return { ...set, pages: set.pages.map((page) => ({ ...page, name: `${top}${page.name}` })) };
}

/**
 * Reads the markdown entries of a zip; a single top folder holding everything is dropped.
 * Entries are inflated within `limits` (`inflateZip`): a zip bomb is refused, not unpacked.
 */
export function readZip(bytes: Uint8Array, limits: ZipLimits = ZIP_LIMITS): SourcePage[] {
  const files = inflateZip(
    bytes,
    (name) => MARKDOWN_FILE.test(name) && !name.startsWith("__MACOSX/"),
    limits,
  );
  const names = [...files.keys()].sort();
  const tops = new Set(names.map((n) => n.includes("/") ? n.slice(0, n.indexOf("/")) : ""));
  const strip = tops.size === 1 && !tops.has("") ? [...tops][0]!.length + 1 : 0;
  return names.map((name) => toPage(name, name.slice(strip), files.get(name)!));
}

function readJsonl(text: string): SourcePage[] {
  const pages: SourcePage[] = [];
  text.split("\n").forEach((line, index) => {
    if (!line.trim()) return;
    const name = `line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      pages.push({ name, error: "is not valid JSON" });
      return;
    }
    const { path, title, markdown } = (value ?? {}) as Record<string, unknown>;
    if (
      typeof path !== "string" || typeof markdown !== "string" ||
      (title !== undefined && typeof title !== "string")
    ) {
      pages.push({
        name,
        error: `needs "path" and "markdown" strings (and "title", if any, a string)`,
      });
      return;
    }
    const clean = cleanPath(path);
    if (!clean) pages.push({ name: `${name} ("${path}")`, error: "has an invalid page path" });
    else pages.push({ name: `${name} ("${path}")`, path: clean, markdown, title });
  });
  return pages;
}

/** One markdown file as a page to import (its path from `relPath`), or why it cannot be one. */
export function toPage(name: string, relPath: string, bytes: Uint8Array): SourcePage {
  const path = cleanPath(relPath.replace(MARKDOWN_FILE, ""));
  if (!path) return { name, error: "has a name that is not a valid page path" };
  let markdown: string;
  try {
    markdown = utf8.decode(bytes);
  } catch {
    return { name, error: "is not UTF-8 text" };
  }
  if (markdown.includes("\u0000")) return { name, error: "is binary, not markdown" };
  return { name, path, markdown: markdown.replace(/^\uFEFF/, "") };
}

/** Longest page path accepted, in characters. */
export const MAX_PATH_LENGTH = 300;

/**
 * Cleans a page path as a writer gives it: trims each segment, drops a trailing `.md`,
 * collapses inner white space. Returns null when nothing valid is left: an empty segment,
 * `.` or `..`, or a character that would break a wikilink (`[ ] | # ^`) or a URL.
 */
export function cleanPath(raw: string): string | null {
  let path = raw.normalize("NFC").trim().replace(/\\/g, "/").replace(/^\/+|\/+$/g, "");
  path = path.replace(/\.md$/i, "");
  const segments = path.split("/").map((s) => s.trim().replace(/\s+/g, " "));
  if (segments.some((s) => s === "" || s === "." || s === "..")) return null;
  path = segments.join("/");
  // deno-lint-ignore no-control-regex
  if (path.length > MAX_PATH_LENGTH || /[\u0000-\u001f\u007f[\]|#^?]/.test(path)) return null;
  return path;
}

/** The key pages are looked up by: case-insensitive, `_` equal to a space. */
export function pathKey(path: string): string {
  return path.normalize("NFC").toLowerCase().replace(/_/g, " ").split("/")
    .map((s) => s.trim().replace(/\s+/g, " ")).join("/");
}

/**
 * The trailing runs of two segments or more of a key, longest first, the key itself left out:
 * `docs/guides/setup` gives `guides/setup`. A link written from the root of the site a wiki was
 * imported from (GitBook's `/running-a-nats-service/configuration/logging.md`) names its page
 * with the folder the import started in; the page is the longest of these that exists. The same
 * runs as the SQL of `resolveLinksOfPages` (src/pages/store.ts) and `selectLinkTargets`
 * (src/spaces/store.ts) write out; a SQL function made by a migration would be one definition,
 * but code writing pages onto an older schema (tests/index_writes_test.ts) then fails.
 */
export function keySuffixes(key: string): string[] {
  const parts = key.split("/");
  const out: string[] = [];
  for (let i = 1; i + 1 < parts.length; i++) out.push(parts.slice(i).join("/"));
  return out;
}

/** The key of the last segment, so that `[[Setup]]` can find `Guides/Setup`. */
export function nameKey(path: string): string {
  const key = pathKey(path);
  return key.slice(key.lastIndexOf("/") + 1);
}

/** The folder part of a path: `Guides/Setup` → `Guides`, `Home` → ``. */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/**
 * Resolves a relative markdown link target (`../Home.md`) against the page's folder.
 * Returns the page path it points at, or null when it climbs out of the wiki.
 */
export function resolveRelative(fromPath: string, href: string): string | null {
  const parts = href.startsWith("/") ? [] : folderOf(fromPath).split("/").filter(Boolean);
  for (const segment of href.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return cleanPath(parts.join("/"));
}

/** The shortest relative href from the page at `fromPath` to the page at `toPath`. */
export function relativeHref(fromPath: string, toPath: string): string {
  const from = folderOf(fromPath).split("/").filter(Boolean);
  const to = toPath.split("/");
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.slice(common).map(() => "..");
  return [...up, ...to.slice(common)].map(encodeURIComponent).join("/")
    .replace(/%2E%2E/g, "..") + ".md";
}

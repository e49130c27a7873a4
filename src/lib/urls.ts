/** Wiki ids: short, URL-safe, lower case, e.g. `deno-manual`. */
export const WIKI_ID = /^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;

/** The public web address of a wiki. */
export function wikiUrl(baseUrl: string, wikiId: string): string {
  return `${baseUrl}/w/${wikiId}`;
}

/** The public web address of a page: each path segment URL-encoded. */
export function pageUrl(baseUrl: string, wikiId: string, path: string): string {
  return `${wikiUrl(baseUrl, wikiId)}/${path.split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * The wiki, page path and section named by a page URL of this server (as `pageUrl` and search
 * results give it), or null when `ref` is not such a URL. A URL on another host is read by its
 * path alone, so that an address seen through a proxy still works.
 */
export function parsePageUrl(
  baseUrl: string,
  ref: string,
): { wiki: string; path: string; section: string | null } | null {
  if (!/^https?:\/\//i.test(ref.trim())) return null;
  let url: URL;
  try {
    url = new URL(ref.trim());
  } catch {
    return null;
  }
  const base = new URL(baseUrl);
  const prefix = base.origin === url.origin ? base.pathname.replace(/\/+$/, "") : "";
  const rest = url.pathname.startsWith(`${prefix}/w/`)
    ? url.pathname.slice(prefix.length + 3)
    : url.pathname.startsWith("/w/")
    ? url.pathname.slice(3)
    : null;
  if (rest === null) return null;
  const slash = rest.indexOf("/");
  if (slash <= 0 || slash === rest.length - 1) return null;
  let path: string, section: string | null;
  try {
    path = rest.slice(slash + 1).split("/").map(decodeURIComponent).join("/");
    section = url.hash.length > 1 ? decodeURIComponent(url.hash.slice(1)) : null;
  } catch {
    return null;
  }
  return { wiki: rest.slice(0, slash), path: path.replace(/\.md$/i, ""), section };
}

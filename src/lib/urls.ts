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
 * The web address of a page in a version of its wiki (`/w/<id>@<version>/Page`); the live
 * address when `version` is null.
 */
export function versionPageUrl(
  baseUrl: string,
  wikiId: string,
  version: string | null,
  path: string,
): string {
  return pageUrl(baseUrl, version ? `${wikiId}@${encodeURIComponent(version)}` : wikiId, path);
}

/**
 * The wiki, page path and section named by a page URL of this server (as `pageUrl` and search
 * results give it), or null when `ref` is not such a URL. A URL on another host is read by its
 * path alone, so that an address seen through a proxy still works.
 */
export function parsePageUrl(
  baseUrl: string,
  ref: string,
): { wiki: string; path: string; section: string | null; version?: string } | null {
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
  // `/w/<id>@<version>/Page` names a version of the wiki.
  const [wiki, version] = splitVersion(rest.slice(0, slash));
  return {
    wiki,
    path: path.replace(/\.md$/i, ""),
    section,
    ...(version ? { version } : {}),
  };
}

/** `docs@v2.1` → `["docs", "v2.1"]`; `docs` → `["docs", null]`. */
export function splitVersion(segment: string): [string, string | null] {
  const at = segment.indexOf("@");
  if (at < 0) return [segment, null];
  let version: string;
  try {
    version = decodeURIComponent(segment.slice(at + 1));
  } catch {
    version = segment.slice(at + 1);
  }
  return [segment.slice(0, at), version || null];
}

import { pageUrl, wikiUrl } from "../../lib/urls.ts";

/** The management pages of a wiki, under its `-` segment (no page path starts with `-`). */
export type SpaceAction = "edit" | "history" | "diff" | "rename" | "delete";

/** Where a wiki's home is, relative to this site. */
export function spaceHref(wikiId: string): string {
  return wikiUrl("", wikiId);
}

/** Where a page is read, relative to this site (the `url` of MCP and REST, without origin). */
export function pageHref(wikiId: string, path: string): string {
  return pageUrl("", wikiId, path);
}

/** Where a management page of a page is: `/w/<id>/-/<action>/<path>`. */
export function actionHref(wikiId: string, action: SpaceAction, path: string): string {
  return `${spaceHref(wikiId)}/-/${action}/${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** A management page of the wiki itself: `/w/<id>/-/<name>`, with an optional query. */
export function toolHref(
  wikiId: string,
  name: string,
  query: Record<string, string | number | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const search = params.toString();
  return `${spaceHref(wikiId)}/-/${name}${search ? `?${search}` : ""}`;
}

/** The editor for a page that does not exist yet. */
export function newPageHref(wikiId: string, path?: string): string {
  return toolHref(wikiId, "new", { path });
}

/** A URL of this site without its origin, so links work whatever host the page was served on. */
export function relativeUrl(url: string, baseUrl: string): string {
  return url.startsWith(baseUrl) ? url.slice(baseUrl.length) || "/" : url;
}

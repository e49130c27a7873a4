/** The public web address of a wiki. */
export function wikiUrl(baseUrl: string, wikiId: string): string {
  return `${baseUrl}/w/${wikiId}`;
}

/** The public web address of a page: each path segment URL-encoded. */
export function pageUrl(baseUrl: string, wikiId: string, path: string): string {
  return `${wikiUrl(baseUrl, wikiId)}/${path.split("/").map(encodeURIComponent).join("/")}`;
}

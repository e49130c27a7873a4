/**
 * Whether a request's `If-None-Match` names the representation's entity tag (RFC 9110 §13.1.2):
 * `*`, or a comma-separated list compared weakly (`W/"x"` matches `"x"`). One rule for every
 * route that answers 304 (page reads over REST, a page's `.md`, a wiki's files).
 */
export function matchesIfNoneMatch(header: string | undefined | null, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  const wanted = bare(etag);
  return header.split(",").some((tag) => tag.trim() === "*" || bare(tag) === wanted);
}

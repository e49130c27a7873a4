import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { decodeUriComponent } from "../lib/decode_uri.ts";
import { matchesIfNoneMatch } from "../lib/etag.ts";
import { resolvePageRef } from "./read_page.ts";

/**
 * The markdown of the page a `/w/<id>/<path>.md` URL names, as written (with `cacheControl`
 * when given: a private page's says only this browser may keep it), or 304 when the request's
 * `If-None-Match` names the page at its current revision.
 * Hono has decoded the path parameter already (and leaves a malformed one as it was): the raw
 * segment is decoded here once, so `%25` means `%` and `%E0%A4%A` is refused.
 */
export async function pageMarkdown(
  deps: Pick<Deps, "db">,
  request: Request,
  wikiId: string,
  cacheControl?: string,
): Promise<Response> {
  const raw = new URL(request.url).pathname.split("/").slice(3).join("/");
  const path = decodeUriComponent(raw)?.replace(/\.md$/, "");
  if (path === undefined) {
    throw new AppError("bad_request", `The page path "${raw}" is not valid percent-encoding`);
  }
  const page = await resolvePageRef(deps.db, wikiId, path);
  const etag = `"${page.id}-${page.revision}"`;
  const headers = new Headers({ "Content-Type": "text/markdown; charset=utf-8", ETag: etag });
  if (cacheControl) headers.set("Cache-Control", cacheControl);
  if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(page.markdown, { headers });
}

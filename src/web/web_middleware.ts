import type { MiddlewareHandler } from "hono";
import type { Deps } from "../deps.ts";
import { ownBodyLimit } from "../http/body_limit.ts";
import { csrfProtection } from "../sessions/csrf.ts";
import { sessionMiddleware } from "../sessions/sessions.ts";
import { pageHeaders } from "../kit/web/page_headers.ts";

/** Options of `webPage`: the largest body (fixed, or chosen by path) and the page headers. */
export type WebPageOptions = {
  maxBody?: number | ((path: string) => number);
  headers?: Parameters<typeof pageHeaders>[0];
  /** Only members post here: a signed-out post is refused unread. */
  signedIn?: boolean;
};

/** The body limit of a web form, unless a route says otherwise. */
export const DEFAULT_MAX_BODY = 64 * 1024;

/**
 * What every server-rendered page of the web app runs before its handler: page headers (CSP,
 * no framing, no caching), the session, and CSRF protection with the body limit. Only
 * `webRoutes` registers it, per path, never on `*`: `/mcp` and `/api` must not honour cookies.
 *
 * No body is read before a post is known to be allowed: `csrfProtection` refuses cross-site
 * and signed-out posts first, then applies the body limit (an oversized `Content-Length` at
 * once, a chunked body stopped at the limit) as it reads the form. It is marked as the route's
 * own body limit, so the app's default limit steps aside.
 *
 * @example
 * ```ts
 * app.use("/account/tokens/*", ...webPage(deps, { maxBody: 16 * 1024 }));
 * ```
 */
export function webPage(
  deps: Pick<Deps, "config" | "db">,
  options: WebPageOptions = {},
): MiddlewareHandler[] {
  return [
    pageHeaders(options.headers),
    sessionMiddleware(deps),
    ownBodyLimit(csrfProtection(deps, {
      signedIn: options.signedIn,
      maxBody: options.maxBody ?? DEFAULT_MAX_BODY,
    })),
  ];
}

import type { MiddlewareHandler } from "hono";
import type { Deps } from "../deps.ts";
import { csrfProtection } from "../sessions/csrf.ts";
import { pageHeaders } from "../sessions/session_routes.tsx";
import { sessionMiddleware } from "../sessions/sessions.ts";

/**
 * What every server-rendered page of the web app runs before its handler: page headers (CSP,
 * no framing, no caching), a body limit, the session and CSRF protection. Register it per
 * path (`app.use("/w/:id/-/*", ...webPage(deps))`), never on `*`: `/mcp` and `/api` must not
 * honour cookies.
 *
 * No body is read before a post is known to be allowed: `csrfProtection` refuses cross-site
 * and signed-out posts first, then applies the body limit (an oversized `Content-Length` at
 * once, a chunked body stopped at the limit) as it reads the form.
 *
 * @param options.maxBody Largest body, in bytes (64 KiB unless set).
 * @param options.signedIn Only members post here: a signed-out post is refused unread.
 */
export function webPage(
  deps: Pick<Deps, "config" | "db">,
  options: { maxBody?: number; signedIn?: boolean } = {},
): MiddlewareHandler[] {
  return [
    pageHeaders(),
    sessionMiddleware(deps),
    csrfProtection(deps, { signedIn: options.signedIn, maxBody: options.maxBody ?? 64 * 1024 }),
  ];
}

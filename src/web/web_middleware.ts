import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Deps } from "../deps.ts";
import { csrfProtection } from "../sessions/csrf.ts";
import { pageHeaders } from "../sessions/session_routes.tsx";
import { sessionMiddleware } from "../sessions/sessions.ts";

/**
 * What every server-rendered page of the web app runs before its handler: page headers (CSP,
 * no framing, no caching), a body limit, the session and CSRF protection. Register it per
 * path (`app.use("/w/:id/-/*", ...webPage(deps))`), never on `*`: `/mcp` and `/api` must not
 * honour cookies.
 */
export function webPage(
  deps: Pick<Deps, "config" | "db">,
  options: { maxBody?: number } = {},
): MiddlewareHandler[] {
  return [
    pageHeaders(),
    bodyLimit({ maxSize: options.maxBody ?? 64 * 1024 }),
    sessionMiddleware(deps),
    csrfProtection(deps),
  ];
}

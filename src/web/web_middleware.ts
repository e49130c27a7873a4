import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Deps } from "../deps.ts";
import { csrfProtection } from "../sessions/csrf.ts";
import { sessionMiddleware } from "../sessions/sessions.ts";
import { pageHeaders } from "./page_headers.ts";

/** Options of `webPage`: the largest body (fixed, or chosen by path) and the page headers. */
export type WebPageOptions = {
  maxBody?: number | ((path: string) => number);
  headers?: Parameters<typeof pageHeaders>[0];
};

/** The body limit of a web form, unless a route says otherwise. */
export const DEFAULT_MAX_BODY = 64 * 1024;

/**
 * What every server-rendered page of the web app runs before its handler: page headers (CSP,
 * no framing, no caching), a body limit, the session and CSRF protection. Only `webRoutes`
 * registers it, per path, never on `*`: `/mcp` and `/api` must not honour cookies.
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
    limitBody(options.maxBody ?? DEFAULT_MAX_BODY),
    sessionMiddleware(deps),
    csrfProtection(deps),
  ];
}

/** Hono's body limit, with the limit fixed or chosen per request path (one instance per size). */
function limitBody(maxBody: number | ((path: string) => number)): MiddlewareHandler {
  if (typeof maxBody === "number") return bodyLimit({ maxSize: maxBody });
  const bySize = new Map<number, MiddlewareHandler>();
  return (c, next) => {
    const size = maxBody(c.req.path);
    let limit = bySize.get(size);
    if (!limit) bySize.set(size, limit = bodyLimit({ maxSize: size }));
    return limit(c, next);
  };
}

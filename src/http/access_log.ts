import type { MiddlewareHandler } from "hono";
import type { Log } from "../lib/log.ts";

/**
 * One JSON line per request: id, method, path (never the query string, which could carry a
 * secret), status, duration, and which credential was used (its kind and id, never the token).
 */
export function accessLog(log: Log): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const resolved = c.get("resolvedCredential");
    const credential = resolved?.ok
      ? { credential: `${resolved.credential.kind}:${resolved.credential.id}` }
      : {};
    log.info("request", {
      request_id: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      ...credential,
    });
  };
}

/** Headers every response carries: no MIME sniffing, no referrer leaks, HSTS over https. */
export function securityHeaders(https: boolean): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.res.headers.set("X-Content-Type-Options", "nosniff");
    if (!c.res.headers.has("Referrer-Policy")) c.res.headers.set("Referrer-Policy", "no-referrer");
    if (https) {
      c.res.headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    }
  };
}

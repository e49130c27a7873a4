import type { MiddlewareHandler } from "hono";
import type { Deps } from "../deps.ts";

/**
 * Declares that a router's writes are read back by their caller: after a request other than
 * GET, HEAD or OPTIONS succeeds, the caller (its request budget's key, so the rate limiter runs
 * first) is marked with the primary's WAL position, and its later reads go to the primary until
 * the replica has replayed past it (src/db/replicas.ts). Nothing to do without replicas.
 *
 * @example
 * app.use("*", rateLimit(deps, "api"), readYourWrites(deps));
 */
export function readYourWrites(deps: Pick<Deps, "replicas">): MiddlewareHandler {
  return async function readYourWrites(c, next) {
    await next();
    if (!deps.replicas || ["GET", "HEAD", "OPTIONS"].includes(c.req.method)) return;
    if (c.res.status < 400) await deps.replicas.wrote(c.get("rateLimit")?.key);
  };
}

import type { MiddlewareHandler } from "hono";
import { AppError } from "../errors.ts";
import { bodyLimit } from "./body_limit.ts";
import { problemResponse } from "./problem.ts";
import { routeDeclares } from "./route_edges.ts";

/**
 * What the app accepts in a request's head. Deno.serve refuses more on its own, before the app
 * sees the request: past 128 header lines or a 64 KiB head (request line and headers) it
 * answers a bare `400` and closes the connection. Below those, these limits answer 431 / 414
 * as problem+json with the request id.
 */
export const HEAD_LIMITS = { headers: 100, headerBytes: 32 * 1024, urlChars: 8 * 1024 };

/**
 * The body limit of routes that declare none of their own (`bodyLimit(…)` or `ownBodyLimit`
 * where the route is defined): REST routes with a body (4 MiB, imports 100 MiB), MCP (the SDK
 * transport: 4 MiB, answered as JSON-RPC) and a wiki's pages (`/w/`: 8 MiB forms, 100 MiB
 * uploads) declare theirs; the other web forms set smaller ones under this.
 */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Refuses requests whose head is too large (431: too many headers or too many header bytes;
 * 414: too long a URL) and bounds the body of every route without a limit of its own (413).
 */
export function requestLimits(): MiddlewareHandler {
  const defaultBody = bodyLimit(DEFAULT_BODY_LIMIT);
  return async function requestLimits(c, next) {
    let count = 0;
    let bytes = 0;
    c.req.raw.headers.forEach((value, name) => {
      count++;
      bytes += name.length + value.length + 4;
    });
    if (count > HEAD_LIMITS.headers || bytes > HEAD_LIMITS.headerBytes) {
      return problemResponse(
        c,
        new AppError(
          "headers_too_large",
          `Send at most ${HEAD_LIMITS.headers} headers of at most ${HEAD_LIMITS.headerBytes} bytes in all`,
        ),
      );
    }
    if (c.req.url.length > HEAD_LIMITS.urlChars) {
      return problemResponse(
        c,
        new AppError("uri_too_long", `The URL is over ${HEAD_LIMITS.urlChars} characters`),
      );
    }
    // The route's own limit first: asking a request for its `body` makes the body's stream,
    // which a route that reads its body whole (MCP's `arrayBuffer()`) never needs.
    if (routeDeclares(c, "body_limit") === undefined && c.req.raw.body) {
      return await defaultBody(c, next);
    }
    await next();
  };
}

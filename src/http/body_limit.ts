import type { MiddlewareHandler } from "hono";
import { bodyLimit as honoBodyLimit } from "hono/body-limit";
import { AppError } from "../errors.ts";
import { declareEdge } from "./route_edges.ts";

/**
 * Refuses a body over `maxSize` bytes with `413 payload_too_large`: an oversized
 * `Content-Length` before the body is read, a chunked body as soon as it passes the limit.
 * Declared on the route (or router) it bounds; routes without one get `DEFAULT_BODY_LIMIT`.
 *
 * @example
 * ```ts
 * app.put("/spaces/:id/pages/:path", bodyLimit(4 * 1024 * 1024), handler);
 * ```
 */
export function bodyLimit(maxSize: number): MiddlewareHandler {
  return declareEdge(
    "body_limit",
    honoBodyLimit({
      maxSize,
      onError: () => {
        throw new AppError("payload_too_large", `The body is over ${maxSize} bytes`);
      },
    }),
  );
}

/**
 * Marks a router's own way of bounding bodies (the MCP transport's 4 MiB answered as
 * JSON-RPC, the web forms' limit applied after the CSRF check) as its declared body limit.
 */
export function ownBodyLimit<M extends MiddlewareHandler>(middleware: M): M {
  return declareEdge("body_limit", middleware);
}

import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AppError } from "../errors.ts";
import { problemResponse } from "./problem.ts";

/**
 * What the app accepts in a request's head. Deno.serve refuses more on its own, before the app
 * sees the request: past 128 header lines or a 64 KiB head (request line and headers) it
 * answers a bare `400` and closes the connection. Below those, these limits answer 431 / 414
 * as problem+json with the request id.
 */
export const HEAD_LIMITS = { headers: 100, headerBytes: 32 * 1024, urlChars: 8 * 1024 };

/**
 * The body limit of routes that set none of their own. REST (`/api/v1`: 4 MiB, imports
 * 100 MiB), MCP (the SDK transport: 4 MiB, answered as JSON-RPC) and a wiki's pages (`/w/`:
 * 8 MiB forms, 100 MiB uploads) bound their bodies themselves; the other web forms set smaller
 * ones under this.
 */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
const OWN_BODY_LIMIT = /^\/(api\/v1|mcp|w)(\/|$)/;

/**
 * Refuses requests whose head is too large (431: too many headers or too many header bytes;
 * 414: too long a URL) and bounds the body of every route without a limit of its own (413).
 */
export function requestLimits(): MiddlewareHandler {
  const defaultBody = bodyLimit({
    maxSize: DEFAULT_BODY_LIMIT,
    onError: () => {
      throw new AppError("payload_too_large", `The body is over ${DEFAULT_BODY_LIMIT} bytes`);
    },
  });
  return async (c, next) => {
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
    if (c.req.raw.body && !OWN_BODY_LIMIT.test(c.req.path)) return await defaultBody(c, next);
    await next();
  };
}

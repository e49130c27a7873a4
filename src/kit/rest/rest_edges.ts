import type { OpenAPIHono, RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { AppError } from "../../errors.ts";

/** The body limit of REST routes with a body (imports: `IMPORT_BODY_LIMIT`). */
export const REST_BODY_LIMIT = 4 * 1024 * 1024;
/** The body limit of an import (a zip of markdown files or a JSON batch). */
export const IMPORT_BODY_LIMIT = 100 * 1024 * 1024;

/**
 * CORS for REST (docs/decisions.md, "CORS for REST"): any origin may call it, and read every
 * answer, its `Retry-After` and budget headers included, because REST authenticates by a bearer
 * token the calling page holds and never by cookie: `Access-Control-Allow-Origin: *` and no
 * `Allow-Credentials`, so a browser never attaches a session to a cross-site call. Applied
 * before the budget and the token check, so a preflight (`OPTIONS`, which carries no token)
 * is answered 204 and never 401 or 429.
 *
 * @example
 * ```ts
 * app.use("*", restCors(), rateLimit(deps, "api"));
 * ```
 */
export function restCors(): MiddlewareHandler {
  return cors({
    origin: "*",
    allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "Accept", "If-Match", "If-None-Match"],
    exposeHeaders: [
      "Retry-After",
      "RateLimit",
      "RateLimit-Policy",
      "ETag",
      "Location",
      "X-Request-Id",
    ],
    maxAge: 86400,
  });
}

/**
 * Answers 415 before the body is read unless it is JSON (`application/json`, `…+json`).
 *
 * @example
 * ```ts
 * createRoute({ method: "post", path: "/ask", middleware: [requireJson()], … });
 * ```
 */
export function requireJson(): MiddlewareHandler {
  return async function requireJson(c, next) {
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/(.+\+)?json\b/i.test(type)) {
      throw new AppError(
        "unsupported_media_type",
        `Send the body as application/json, not "${type || "nothing"}"`,
      );
    }
    await next();
  };
}

/**
 * `If-Match: "<id>-<revision>"` (our ETag), a bare revision, or `*` (any existing revision):
 * the revision a write is conditional on, or undefined for none.
 */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (!header) return undefined;
  if (header.trim() === "*") return undefined;
  const m = /^(?:W\/)?"?(?:\d+-)?(\d+)"?$/.exec(header.trim());
  if (!m) throw new AppError("bad_request", `If-Match must be the page's ETag, not "${header}"`);
  return Number(m[1]);
}

/**
 * Runs a conditional write: a revision conflict (409 on MCP and the web) is, on REST, the
 * `If-Match` precondition failing (RFC 9110 §13.1.1), so it becomes 412 `precondition_failed`.
 */
export async function withIfMatch<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof AppError && error.code === "revision_conflict") {
      throw new AppError("precondition_failed", error.detail, error.extra);
    }
    throw error;
  }
}

/**
 * Registers a route whose body is required in the document but comes in several media types:
 * the document says `required: true`; at run time @hono/zod-openapi validates the JSON body
 * with its schema only when it is JSON (with `required: true` it would validate every body as
 * JSON, a markdown one too), and the handler reads the other types.
 */
export function openapiWithBody<R extends RouteConfig>(
  app: OpenAPIHono,
  route: R,
  handler: RouteHandler<R>,
): void {
  const { middleware: _middleware, ...documented } = route;
  app.openAPIRegistry.registerPath({
    ...documented,
    request: { ...route.request, body: { ...route.request!.body!, required: true } },
  });
  const runtime = {
    ...route,
    hide: true,
    request: { ...route.request, body: { ...route.request!.body!, required: false } },
  } as R;
  app.openapi(runtime, handler);
}

import type { Context, MiddlewareHandler, Next } from "hono";
import { AppError } from "../errors.ts";
import type { Log } from "../lib/log.ts";
import { problemResponse } from "./problem.ts";
import { declareEdge, routeDeclares } from "./route_edges.ts";

/**
 * Answers `503 request_timeout` (problem+json) when a request has not produced its response
 * within `ms`, so a client never waits on a hung database or upstream. The work itself is not
 * cancelled: it runs to its end and its result is dropped. The bound is on the time to the
 * response's headers; a streamed answer is bounded by `LLM_TIMEOUT_MS`. With PGlite, a long
 * query holds the process's only thread, and the answer comes when the query yields.
 *
 * @example
 * ```ts
 * app.post("/spaces/:id/import", timeout({ ms: 600_000, log }), handler);
 * ```
 */
export function timeout(options: { ms: number; log: Pick<Log, "warn"> }): MiddlewareHandler {
  return declareEdge("timeout", async function timeout(c, next) {
    // Under `requestTimeout`, the clock already runs with this route's bound.
    if (c.get("timeoutMs") !== undefined) return await next();
    return await race(c, next, options);
  }, options.ms);
}

declare module "hono" {
  interface ContextVariableMap {
    /** The bound the request runs under, once `requestTimeout` has started its clock. */
    timeoutMs: number;
  }
}

async function race(
  c: Context,
  next: Next,
  { ms, log }: { ms: number; log: Pick<Log, "warn"> },
): Promise<Response | void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<true>((resolve) => {
    timer = setTimeout(() => resolve(true), ms);
  });
  try {
    const timedOut = await Promise.race([next().then(() => false), expired]);
    if (!timedOut) return;
  } finally {
    clearTimeout(timer);
  }
  log.warn("request timed out", {
    request_id: c.get("requestId"),
    method: c.req.method,
    path: c.req.path,
    timeout_ms: ms,
  });
  return problemResponse(
    c,
    new AppError(
      "request_timeout",
      `The request took longer than ${ms} ms and was stopped: try again, or ask for less`,
      { timeout_ms: ms },
    ),
  );
}

/**
 * Starts every request's clock, from its first middleware: the bound its route declares with
 * `timeout(…)` (imports: `IMPORT_TIMEOUT_MS`), else `ms` (`REQUEST_TIMEOUT_MS`).
 */
export function requestTimeout(options: { ms: number; log: Pick<Log, "warn"> }): MiddlewareHandler {
  return async function requestTimeout(c, next) {
    const ms = routeDeclares(c, "timeout") ?? options.ms;
    c.set("timeoutMs", ms);
    return await race(c, next, { ms, log: options.log });
  };
}

import type { MiddlewareHandler } from "hono";
import type { Config } from "../config/config.ts";
import { AppError } from "../errors.ts";
import type { Log } from "../lib/log.ts";
import { problemResponse } from "./problem.ts";

/**
 * Imports: REST `/api/v1/spaces/<id>/import` and the web's `/w/<id>/-/import`; Git syncs run in
 * the request too (`/api/v1/spaces/<id>/sync`, `/w/<id>/-/sync/now`).
 */
const IMPORT_PATH =
  /^\/(api\/v1\/spaces\/[^/]+\/(import|sync)|w\/[^/]+\/-\/(import|sync\/now))\/?$/;

/**
 * Answers `503 request_timeout` (problem+json) when a request has not produced its response
 * within `REQUEST_TIMEOUT_MS` (`IMPORT_TIMEOUT_MS` for imports), so a client never waits
 * on a hung database or upstream. The work itself is not cancelled: it runs to its end and its
 * result is dropped. The bound is on the time to the response's headers; a streamed answer is
 * bounded by `LLM_TIMEOUT_MS`. With PGlite, a long query holds the process's only thread, and
 * the answer comes when the query yields.
 */
export function requestTimeout(
  timeouts: Config["timeouts"],
  log: Pick<Log, "warn">,
): MiddlewareHandler {
  return async (c, next) => {
    const ms = c.req.method === "POST" && IMPORT_PATH.test(c.req.path)
      ? timeouts.importMs
      : timeouts.requestMs;
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
  };
}

import type { Context } from "hono";
import { AppError, errorCatalogue, RateLimitedError } from "../errors.ts";
import { setBudgetHeaders } from "./retry_headers.ts";

/**
 * Renders an error as `application/problem+json` (RFC 9457) with its stable `code` and the
 * request id. Unexpected errors become a bare 500 that reveals nothing of the cause.
 */
export function problemResponse(c: Context, error: AppError): Response {
  const body = {
    type: "about:blank",
    title: error.title,
    status: error.status,
    detail: error.detail,
    code: error.code,
    request_id: c.get("requestId"),
    ...error.extra,
  };
  const response = c.newResponse(JSON.stringify(body), error.status as 400, {
    "Content-Type": "application/problem+json",
  });
  if (error instanceof RateLimitedError) {
    setBudgetHeaders(response.headers, { ...error.budget, remaining: 0 }, true);
  }
  return response;
}

/** The `internal` error shown for anything unexpected. */
export function internalError(): AppError {
  return new AppError("internal", errorCatalogue.internal.title);
}

import type { ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Deps } from "../../deps.ts";
import { AppError, RateLimitedError } from "../../errors.ts";
import { setBudgetHeaders } from "../../http/retry_headers.ts";
import { internalError } from "../../http/problem.ts";
import { ErrorPage } from "./error_page.tsx";

/**
 * How the web pages fail: a missing session goes to sign-in (with `next` on GET when
 * `signInNext`, so the user comes back); anything else is an HTML error page with the error's
 * status, and an unexpected error is logged and shown as a bare internal error.
 */
export function webErrorHandler(
  deps: Pick<Deps, "log">,
  options: { signInNext: boolean },
): ErrorHandler {
  return async (error, c) => {
    if (error instanceof AppError && error.code === "unauthorized") {
      if (!options.signInNext) return c.redirect("/signin", 303);
      if (c.req.method === "GET") {
        const url = new URL(c.req.url);
        return c.redirect(`/signin?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
      }
    }
    const expected = expectedError(error);
    if (!expected) {
      deps.log.error("unhandled error", {
        request_id: c.get("requestId"),
        method: c.req.method,
        path: c.req.path,
        error: error instanceof Error ? error.stack ?? error.message : String(error),
      });
    }
    const shown = expected ?? internalError();
    // Signed out, a "not found" may be a private space of the reader's: the page's sign-in
    // link brings them back here.
    const url = new URL(c.req.url);
    const signInNext = options.signInNext && !c.get("account")
      ? c.req.method === "GET" ? url.pathname + url.search : formPage(c.req.header("referer"), url)
      : undefined;
    const response = await c.html(
      <ErrorPage
        account={c.get("account") ?? null}
        csrfToken={c.get("csrfToken") ?? ""}
        title={shown.title}
        message={shown.detail}
        signInNext={signInNext}
      />,
      shown.status as ContentfulStatusCode,
    );
    if (shown instanceof RateLimitedError) {
      setBudgetHeaders(response.headers, { ...shown.budget, remaining: 0 }, true);
    }
    return response;
  };
}

/**
 * Where a refused post came from, to come back to after signing in: the page of its form (the
 * Referer, on our own origin only), else the post's own path (the editor's form posts to the
 * editor's address).
 */
function formPage(referer: string | undefined, url: URL): string {
  try {
    const from = new URL(referer ?? "");
    if (from.origin === url.origin) return from.pathname + from.search;
  } catch {
    // no usable Referer
  }
  return url.pathname;
}

/** An error the client caused: ours, or Hono's own (a body over the form limit, unreadable form). */
function expectedError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (error instanceof HTTPException && error.status < 500) {
    return error.status === 413
      ? new AppError("payload_too_large", "What you sent is too large for this form")
      : new AppError("bad_request", error.message || "The request cannot be read");
  }
  return null;
}

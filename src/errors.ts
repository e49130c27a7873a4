/**
 * The one catalogue of application errors: a stable `code`, its HTTP status and title.
 * REST renders them as problem+json (RFC 9457); MCP tools as `isError` results.
 */
export const errorCatalogue = {
  bad_request: { status: 400, title: "Bad request" },
  invalid_json: { status: 400, title: "Malformed JSON body" },
  invalid_path: { status: 400, title: "Invalid page path" },
  invalid_wiki_id: { status: 400, title: "Invalid wiki id" },
  unauthorized: { status: 401, title: "Authentication required" },
  forbidden: { status: 403, title: "Forbidden" },
  space_token_not_allowed: { status: 403, title: "Space tokens work on MCP only" },
  not_found: { status: 404, title: "Not found" },
  wiki_not_found: { status: 404, title: "Wiki not found" },
  page_not_found: { status: 404, title: "Page not found" },
  version_not_found: { status: 404, title: "Version not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  revision_conflict: { status: 409, title: "Revision conflict" },
  page_exists: { status: 409, title: "Page already exists" },
  file_exists: { status: 409, title: "File already exists" },
  wiki_exists: { status: 409, title: "Wiki already exists" },
  version_exists: { status: 409, title: "Version already exists" },
  default_version: { status: 409, title: "The default version cannot be deleted" },
  account_exists: { status: 409, title: "Account already exists" },
  team_exists: { status: 409, title: "Team already exists" },
  space_synced: { status: 409, title: "Space is synced from Git" },
  precondition_failed: { status: 412, title: "Precondition failed" },
  payload_too_large: { status: 413, title: "Payload too large" },
  uri_too_long: { status: 414, title: "URI too long" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  invalid_markdown: { status: 422, title: "Page cannot be parsed" },
  sync_failed: { status: 422, title: "Git sync failed" },
  rate_limited: { status: 429, title: "Too many requests" },
  headers_too_large: { status: 431, title: "Request header fields too large" },
  internal: { status: 500, title: "Internal error" },
  database_unavailable: { status: 503, title: "Database unavailable" },
  request_timeout: { status: 503, title: "Request timed out" },
} as const;

/** A stable error code of the catalogue. */
export type ErrorCode = keyof typeof errorCatalogue;

/** An expected failure that stops a request; `detail` is safe to show to the caller. */
export class AppError extends Error {
  override name = "AppError";
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    /** Extra members for the problem document, e.g. `current_revision` or `suggestions`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
  }

  get status(): number {
    return errorCatalogue[this.code].status;
  }

  get title(): string {
    return errorCatalogue[this.code].title;
  }
}

/**
 * A budget spent (a 429 on every surface): the budget it was counted on and when to retry.
 * REST and the web stamp `Retry-After` and `RateLimit` from it (`setBudgetHeaders`); MCP tools
 * put `retry_after` in the result's `_meta`.
 */
export class RateLimitedError extends AppError {
  constructor(
    detail: string,
    readonly budget: { name: string; limit: number; windowSeconds: number; resetSeconds: number },
  ) {
    super("rate_limited", detail, { retry_after: Math.max(1, Math.ceil(budget.resetSeconds)) });
  }
}

import type { Context } from "hono";

/** The error codes of RFC 6749 §5.2, RFC 7591 §3.2.2 and RFC 8707 that this server sends. */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "access_denied"
  | "unsupported_response_type"
  | "server_error";

/** An expected OAuth failure: the protocol's own error shape, not the problem+json catalogue. */
export type OAuthFailure = { ok: false; error: OAuthErrorCode; description: string };

/** Builds an `OAuthFailure`. */
export function oauthFailure(error: OAuthErrorCode, description: string): OAuthFailure {
  return { ok: false, error, description };
}

/** Headers of every token, registration and revocation response (RFC 6749 §5.1). */
export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" } as const;

/**
 * Renders an OAuth error as `{error, error_description}` JSON: 401 with a Basic challenge for
 * `invalid_client` (RFC 6749 §5.2), 400 for the rest.
 */
export function oauthErrorResponse(c: Context, failure: OAuthFailure): Response {
  const status = failure.error === "invalid_client" ? 401 : 400;
  const headers: Record<string, string> = { ...NO_STORE };
  if (status === 401) headers["WWW-Authenticate"] = 'Basic realm="oauth"';
  return c.json({ error: failure.error, error_description: failure.description }, status, headers);
}

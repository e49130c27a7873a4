import type { Context, MiddlewareHandler } from "hono";
import type { Credential } from "../access/credential.ts";
import { requestCredential } from "../auth/credentials.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { problemResponse } from "../http/problem.ts";

declare module "hono" {
  interface ContextVariableMap {
    credential: Credential;
  }
}

/**
 * The REST side of the one credential model: an account token is required; a space token is
 * refused with a problem that says what to use instead (space tokens are for MCP only).
 */
export function requireAccountToken(deps: Deps): MiddlewareHandler {
  return async (c, next) => {
    const resolved = await requestCredential(c, deps);
    if (!resolved.ok) return unauthorized(c, deps, resolved.reason);
    if (resolved.credential.kind === "space_token") {
      throw new AppError(
        "space_token_not_allowed",
        "Space tokens work on MCP only: use an account token for the REST API",
      );
    }
    if (resolved.credential.kind === "oauth") {
      // Tokens minted for /mcp are not passed through to another resource (RFC 8707; MCP
      // authorization spec, "Token Passthrough").
      throw new AppError(
        "forbidden",
        "OAuth tokens are issued for the MCP endpoint only: use an account token for the REST API",
      );
    }
    c.set("credential", resolved.credential);
    await next();
  };
}

function unauthorized(c: Context, deps: Deps, reason: string): Response {
  const detail = reason === "missing"
    ? "This route needs an account token: Authorization: Bearer <account token>"
    : `The token was refused (${reason})`;
  const response = problemResponse(c, new AppError("unauthorized", detail));
  const realm = `realm="${deps.config.baseUrl}/api/v1"`;
  response.headers.set(
    "WWW-Authenticate",
    reason === "missing" ? `Bearer ${realm}` : `Bearer ${realm}, error="invalid_token"`,
  );
  return response;
}

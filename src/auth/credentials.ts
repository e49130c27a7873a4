import type { Context } from "hono";
import type { Credential } from "../access/credential.ts";
import type { Deps } from "../deps.ts";
import { OAUTH_TOKEN_PREFIX, resolveAccessToken } from "../oauth/oauth_tokens.ts";
import { mcpResource } from "../oauth/resource.ts";
import { resolveToken, type TokenRefusal } from "./tokens.ts";

/** Why no credential could be resolved: `missing` gets a bare challenge, the rest `invalid_token`. */
export type CredentialFailure = "missing" | "malformed" | TokenRefusal;

/**
 * Resolves the `Authorization` header of a request; the token's prefix picks the validator.
 * OAuth access tokens must have been issued for this server's `/mcp` (RFC 8707 audience).
 */
export async function resolveCredential(
  deps: Pick<Deps, "db" | "config">,
  authorization: string | undefined,
): Promise<{ ok: true; credential: Credential } | { ok: false; reason: CredentialFailure }> {
  if (!authorization) return { ok: false, reason: "missing" };
  const match = /^Bearer +([\x21-\x7e]+)$/i.exec(authorization.trim());
  if (!match) return { ok: false, reason: "malformed" };
  const secret = match[1]!;
  if (secret.startsWith(OAUTH_TOKEN_PREFIX.access)) {
    const oauth = await resolveAccessToken(deps.db, secret, mcpResource(deps.config.baseUrl));
    if (!oauth.ok) return oauth;
    const { grantId, ...access } = oauth.access;
    return { ok: true, credential: { kind: "oauth", id: grantId, ...access } };
  }
  const resolved = await resolveToken(deps.db, secret);
  if (!resolved.ok) return resolved;
  const t = resolved.token;
  return {
    ok: true,
    credential: t.kind === "space"
      ? { kind: "space_token", id: t.id, accountId: t.account_id, spaceId: t.wiki_id! }
      : { kind: "account_token", id: t.id, accountId: t.account_id },
  };
}

type Resolution = Awaited<ReturnType<typeof resolveCredential>>;

declare module "hono" {
  interface ContextVariableMap {
    resolvedCredential: Resolution;
  }
}

/** The request's credential, resolved once per request (the rate limiter and the route share it). */
export async function requestCredential(
  c: Context,
  deps: Pick<Deps, "db" | "config">,
): Promise<Resolution> {
  const known = c.get("resolvedCredential");
  if (known) return known;
  const resolved = await resolveCredential(deps, c.req.header("authorization"));
  c.set("resolvedCredential", resolved);
  return resolved;
}

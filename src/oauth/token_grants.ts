import type { Db } from "../db/db.ts";
import { encodeBase64url } from "../lib/base64url.ts";
import { randomId } from "../lib/secrets.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { type OAuthFailure, oauthFailure } from "./oauth_error.ts";
import { ACCESS_TOKEN_TTL_S, mintTokens } from "./oauth_tokens.ts";
import { canonicalResource } from "./resource.ts";
import {
  type ClientRow,
  insertGrant,
  markCodeUsed,
  markRefreshTokenRotated,
  revokeGrantRow,
  selectCode,
  selectRefreshToken,
} from "./store.ts";

/** A successful token response (RFC 6749 §5.1). */
export type TokenResponse = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
};

/**
 * Redeems an authorization code (RFC 6749 §4.1.3 with PKCE, RFC 7636 §4.6). The code is bound
 * to its client, redirect URI, challenge and resource, works once and for a minute; a second
 * redemption revokes everything the first one issued (OAuth 2.1 §4.1.3).
 */
export async function exchangeCode(
  db: Db,
  baseUrl: string,
  client: ClientRow,
  form: URLSearchParams,
): Promise<{ ok: true; tokens: TokenResponse } | OAuthFailure> {
  const code = form.get("code");
  if (!code) return oauthFailure("invalid_request", "code is missing");
  const codeHash = await sha256Hex(code);
  const row = await selectCode(db, codeHash);
  const invalid = oauthFailure("invalid_grant", "The code is not valid");
  if (!row) return invalid;
  if (row.used_at) {
    if (row.grant_id) await revokeGrantRow(db, row.grant_id);
    return oauthFailure("invalid_grant", "The code has been used already");
  }
  if (row.client_id !== client.id) return invalid;
  if (row.expires_at.getTime() <= Date.now()) {
    return oauthFailure("invalid_grant", "The code has expired");
  }
  if (form.get("redirect_uri") !== row.redirect_uri) {
    return oauthFailure("invalid_grant", "redirect_uri differs from the authorization request's");
  }
  const verifier = form.get("code_verifier");
  if (!verifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) {
    return oauthFailure("invalid_grant", "code_verifier is missing or malformed");
  }
  if (await s256(verifier) !== row.code_challenge) {
    return oauthFailure("invalid_grant", "code_verifier does not match the code_challenge");
  }
  const resource = form.has("resource")
    ? canonicalResource(baseUrl, form.get("resource")!)
    : row.resource;
  if (resource !== row.resource) {
    return oauthFailure("invalid_target", "resource differs from the one authorized");
  }
  return await db.transaction(async (tx) => {
    const grantId = randomId("grant_");
    await insertGrant(tx, {
      id: grantId,
      account_id: row.account_id,
      client_id: row.client_id,
      space_ids: row.space_ids,
      scope: row.scope,
      resource: row.resource,
    });
    if (!await markCodeUsed(tx, codeHash, grantId)) {
      throw new Error("code redeemed concurrently"); // rolled back; the loser sees used_at next
    }
    const pair = await mintTokens(tx, grantId, row.resource);
    return { ok: true as const, tokens: tokenResponse(pair, row.scope) };
  }).catch(async (error) => {
    if (error instanceof Error && error.message === "code redeemed concurrently") {
      const used = await selectCode(db, codeHash);
      if (used?.grant_id) await revokeGrantRow(db, used.grant_id);
      return oauthFailure("invalid_grant", "The code has been used already");
    }
    throw error;
  });
}

/**
 * Refreshes (RFC 6749 §6) with rotation (OAuth 2.1 §4.3.1): each refresh token works once.
 * A rotated-out token presented again means it leaked or a client misbehaves: the whole
 * grant is revoked (RFC 9700 §4.14.2). A narrower scope may be asked for, never a wider one.
 */
export async function refreshTokens(
  db: Db,
  baseUrl: string,
  client: ClientRow,
  form: URLSearchParams,
): Promise<{ ok: true; tokens: TokenResponse } | OAuthFailure> {
  const token = form.get("refresh_token");
  if (!token) return oauthFailure("invalid_request", "refresh_token is missing");
  const hash = await sha256Hex(token);
  const row = await selectRefreshToken(db, hash);
  if (!row || row.grant.client_id !== client.id) {
    return oauthFailure("invalid_grant", "The refresh token is not valid");
  }
  if (row.grant.revoked_at) return oauthFailure("invalid_grant", "The grant has been revoked");
  if (row.rotated_at) {
    await revokeGrantRow(db, row.grant_id);
    return oauthFailure(
      "invalid_grant",
      "The refresh token was already used; the grant is revoked",
    );
  }
  if (row.expires_at.getTime() <= Date.now()) {
    return oauthFailure("invalid_grant", "The refresh token has expired");
  }
  const granted = row.grant.scope.split(" ");
  const asked = form.get("scope")?.split(" ").filter(Boolean) ?? granted;
  const wider = asked.find((s) => !granted.includes(s) && s !== "offline_access");
  if (wider) return oauthFailure("invalid_scope", `Scope "${wider}" was not granted`);
  const scope = asked.filter((s) => granted.includes(s)).join(" ") || row.grant.scope;
  if (
    form.has("resource") && canonicalResource(baseUrl, form.get("resource")!) !== row.grant.resource
  ) {
    return oauthFailure("invalid_target", "resource differs from the one granted");
  }
  if (!await markRefreshTokenRotated(db, hash)) {
    await revokeGrantRow(db, row.grant_id);
    return oauthFailure(
      "invalid_grant",
      "The refresh token was already used; the grant is revoked",
    );
  }
  const pair = await mintTokens(db, row.grant_id, row.grant.resource);
  return { ok: true, tokens: tokenResponse(pair, scope) };
}

function tokenResponse(pair: { accessToken: string; refreshToken: string }, scope: string) {
  return {
    access_token: pair.accessToken,
    token_type: "Bearer" as const,
    expires_in: ACCESS_TOKEN_TTL_S,
    refresh_token: pair.refreshToken,
    scope,
  };
}

/** BASE64URL(SHA-256(verifier)), the S256 transform of RFC 7636 §4.2. */
async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return encodeBase64url(new Uint8Array(digest));
}

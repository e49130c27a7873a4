import type { Db } from "../db/db.ts";
import { randomSecret } from "../lib/secrets.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { insertAccessToken, insertRefreshToken, selectAccessToken, touchGrant } from "./store.ts";

/** Readable prefixes, distinct from account and space tokens (and findable by scanners). */
export const OAUTH_TOKEN_PREFIX = { access: "wk_oat_", refresh: "wk_ort_" } as const;

/** Access tokens live an hour (OAuth 2.1 §7.1.3: short-lived; clients refresh). */
export const ACCESS_TOKEN_TTL_S = 3600;
/** A refresh token not used for 90 days dies; each use rotates it and restarts the clock. */
const REFRESH_TOKEN_TTL_MS = 90 * 86_400_000;

/** A fresh pair of tokens of a grant. */
export type TokenPair = { accessToken: string; refreshToken: string };

/** Mints an access token for `audience` and a refresh token, both of the grant's family. */
export async function mintTokens(db: Db, grantId: string, audience: string): Promise<TokenPair> {
  const accessToken = OAUTH_TOKEN_PREFIX.access + randomSecret();
  const refreshToken = OAUTH_TOKEN_PREFIX.refresh + randomSecret();
  await insertAccessToken(db, {
    token_hash: await sha256Hex(accessToken),
    grant_id: grantId,
    audience,
    expires_at: new Date(Date.now() + ACCESS_TOKEN_TTL_S * 1000),
  });
  await insertRefreshToken(db, {
    token_hash: await sha256Hex(refreshToken),
    grant_id: grantId,
    expires_at: new Date(Date.now() + REFRESH_TOKEN_TTL_MS),
  });
  return { accessToken, refreshToken };
}

/** An OAuth access token as the resource server sees it. */
export type OAuthAccess = {
  grantId: string;
  accountId: string;
  clientId: string;
  clientName: string;
  spaceIds: string[];
};

/**
 * Resolves an access token for the resource `audience` (RFC 8707 §2: a token issued for
 * another resource is refused, no passthrough), or says why it is refused.
 */
export async function resolveAccessToken(
  db: Db,
  secret: string,
  audience: string,
): Promise<
  { ok: true; access: OAuthAccess } | { ok: false; reason: "unknown" | "revoked" | "expired" }
> {
  if (!secret.startsWith(OAUTH_TOKEN_PREFIX.access) || secret.length > 200) {
    return { ok: false, reason: "unknown" };
  }
  const row = await selectAccessToken(db, await sha256Hex(secret));
  if (!row || row.audience.replace(/\/$/, "") !== audience) return { ok: false, reason: "unknown" };
  if (row.revoked_at) return { ok: false, reason: "revoked" };
  if (row.expires_at.getTime() <= Date.now()) return { ok: false, reason: "expired" };
  await touchGrant(db, row.grant_id);
  return {
    ok: true,
    access: {
      grantId: row.grant_id,
      accountId: row.account_id,
      clientId: row.client_id,
      clientName: row.client_name,
      spaceIds: row.space_ids,
    },
  };
}

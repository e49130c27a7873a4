import { authorizeSpaceToken } from "../access/access_policy.ts";
import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import { randomId, randomSecret } from "../lib/secrets.ts";
import { sha256Hex } from "../lib/sha256.ts";
import {
  insertToken,
  revokeTokenRow,
  selectTokenByHash,
  type TokenRow,
  touchToken,
} from "./store.ts";

/** Readable prefixes: they tell the kind at a glance and let secret scanners find leaks. */
export const TOKEN_PREFIX = { account: "wk_acct_", space: "wk_space_" } as const;

/** A token as created: the secret is in `token`, shown this once and never again. */
export type NewToken = { token: string; record: TokenRow };

/**
 * Creates an account token (every space of the account; MCP and REST) or a space token
 * (one space; MCP only). 256 random bits, base64url, behind the kind's prefix; only the
 * SHA-256 of the whole string is stored.
 */
export async function createToken(
  db: Db,
  input: {
    accountId: string;
    kind: "account" | "space";
    spaceId?: string;
    name: string;
    expiresAt?: Date | null;
    /** `read` (the default) or `read_propose`: may also propose edits. */
    scope?: TokenRow["scope"];
  },
): Promise<NewToken> {
  const name = input.name.trim();
  if (!name || name.length > 100) {
    throw new AppError("bad_request", "A token needs a name of 1-100 characters");
  }
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
    throw new AppError("bad_request", "A token's expiry must be in the future");
  }
  let wikiId: string | null = null;
  if (input.kind === "space") {
    const proposes = (input.scope ?? "read") !== "read";
    wikiId = await authorizeSpaceToken(db, input.accountId, input.spaceId, proposes);
  }
  const secret = TOKEN_PREFIX[input.kind] +
    randomSecret();
  const record = await insertToken(db, {
    id: randomId("tok_"),
    kind: input.kind,
    account_id: input.accountId,
    wiki_id: wikiId,
    name,
    hint: secret.slice(0, TOKEN_PREFIX[input.kind].length + 4),
    secret_hash: await sha256Hex(secret),
    expires_at: input.expiresAt ?? null,
    scope: input.scope ?? "read",
  });
  return { token: secret, record };
}

/** Why a presented token was refused. */
export type TokenRefusal = "unknown" | "revoked" | "expired";

/** Resolves a presented secret to its live token, or says why it is refused. */
export async function resolveToken(
  db: Db,
  secret: string,
): Promise<{ ok: true; token: TokenRow } | { ok: false; reason: TokenRefusal }> {
  if (!Object.values(TOKEN_PREFIX).some((p) => secret.startsWith(p)) || secret.length > 200) {
    return { ok: false, reason: "unknown" };
  }
  const token = await selectTokenByHash(db, await sha256Hex(secret));
  if (!token) return { ok: false, reason: "unknown" };
  if (token.revoked_at) return { ok: false, reason: "revoked" };
  if (token.expires_at && token.expires_at.getTime() <= Date.now()) {
    return { ok: false, reason: "expired" };
  }
  await touchToken(db, token.id);
  return { ok: true, token };
}

/** Revokes a token of the account, effective at once; `not_found` if it has none such. */
export async function revokeToken(db: Db, accountId: string, tokenId: string): Promise<void> {
  if (!await revokeTokenRow(db, accountId, tokenId)) {
    throw new AppError("not_found", `Token "${tokenId}" not found or already revoked`);
  }
}

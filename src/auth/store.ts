import type { Db } from "../db/db.ts";

/** A token as stored (its secret only as a hash). */
export type TokenRow = {
  id: string;
  kind: "account" | "space";
  account_id: string;
  wiki_id: string | null;
  name: string;
  hint: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  /** `read`, or `read_propose`: may also propose edits (MCP `propose_edit`, REST proposals). */
  scope: "read" | "read_propose";
};

/** Stores a new token. */
export async function insertToken(
  db: Db,
  token:
    & Pick<
      TokenRow,
      "id" | "kind" | "account_id" | "wiki_id" | "name" | "hint" | "expires_at" | "scope"
    >
    & {
      secret_hash: string;
    },
): Promise<TokenRow> {
  const rows = await db<TokenRow>`
    INSERT INTO tokens (id, kind, account_id, wiki_id, name, hint, secret_hash, expires_at, scope)
    VALUES (${token.id}, ${token.kind}, ${token.account_id}, ${token.wiki_id}, ${token.name}, ${token.hint},
            ${token.secret_hash}, ${token.expires_at}, ${token.scope})
    RETURNING id, kind, account_id, wiki_id, name, hint, created_at, last_used_at, expires_at, revoked_at, scope`;
  return rows[0]!;
}

/** The token whose secret has this hash, or null. */
export async function selectTokenByHash(db: Db, hash: string): Promise<TokenRow | null> {
  const rows = await db<TokenRow>`
    SELECT id, kind, account_id, wiki_id, name, hint, created_at, last_used_at, expires_at, revoked_at, scope
    FROM tokens WHERE secret_hash = ${hash}`;
  return rows[0] ?? null;
}

/** Notes a token's use, at most once a minute (no write per request). */
export async function touchToken(db: Db, id: string): Promise<void> {
  await db`
    UPDATE tokens SET last_used_at = now()
    WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`;
}

/** An account's tokens, newest first. */
export function selectTokensOf(db: Db, accountId: string): Promise<TokenRow[]> {
  return db<TokenRow>`
    SELECT id, kind, account_id, wiki_id, name, hint, created_at, last_used_at, expires_at, revoked_at, scope
    FROM tokens WHERE account_id = ${accountId}
    ORDER BY created_at DESC`;
}

/** Revokes one of an account's tokens; false when it has no such live token. */
export async function revokeTokenRow(db: Db, accountId: string, id: string): Promise<boolean> {
  const rows = await db`
    UPDATE tokens SET revoked_at = now()
    WHERE id = ${id} AND account_id = ${accountId} AND revoked_at IS NULL
    RETURNING 1`;
  return rows.length > 0;
}

/** Revokes an account's space tokens for the spaces of a team (the account left the team). */
export async function revokeTeamSpaceTokens(
  db: Db,
  accountId: string,
  teamId: string,
): Promise<void> {
  await db`
    UPDATE tokens SET revoked_at = now()
    WHERE account_id = ${accountId} AND kind = 'space' AND revoked_at IS NULL
      AND wiki_id IN (SELECT id FROM wikis WHERE owner_team_id = ${teamId})`;
}

/** Revokes every live token of an account (after a password change, when asked to). */
export async function revokeAllTokensOf(db: Db, accountId: string): Promise<number> {
  const rows = await db`
    UPDATE tokens SET revoked_at = now() WHERE account_id = ${accountId} AND revoked_at IS NULL
    RETURNING 1`;
  return rows.length;
}

import type { Db } from "../db/db.ts";

/** A client as stored (its secret only as a hash). */
export type ClientRow = {
  id: string;
  kind: "dcr" | "cimd";
  name: string;
  redirect_uris: string[];
  auth_method: "none" | "client_secret_post" | "client_secret_basic";
  secret_hash: string | null;
  metadata: Record<string, unknown>;
  cimd_expires_at: Date | null;
  created_at: Date;
};

const CLIENT_COLUMNS =
  "id, kind, name, redirect_uris, auth_method, secret_hash, metadata, cimd_expires_at, created_at";

/** Stores a client registered through DCR. */
export async function insertClient(
  db: Db,
  client: Pick<ClientRow, "id" | "name" | "redirect_uris" | "auth_method" | "secret_hash"> & {
    metadata: Record<string, unknown>;
  },
): Promise<ClientRow> {
  const rows = await db<ClientRow>`
    INSERT INTO oauth_clients (id, kind, name, redirect_uris, auth_method, secret_hash, metadata)
    VALUES (${client.id}, 'dcr', ${client.name}, ${client.redirect_uris}::text[],
            ${client.auth_method}, ${client.secret_hash}, ${
    JSON.stringify(client.metadata)
  }::text::jsonb)
    RETURNING id, kind, name, redirect_uris, auth_method, secret_hash, metadata, cimd_expires_at, created_at`;
  return rows[0]!;
}

/** Stores or refreshes the cached metadata document of a URL-shaped client id. */
export async function upsertDocumentClient(
  db: Db,
  client: Pick<ClientRow, "id" | "name" | "redirect_uris"> & {
    metadata: Record<string, unknown>;
    expires_at: Date;
  },
): Promise<ClientRow> {
  const rows = await db<ClientRow>`
    INSERT INTO oauth_clients (id, kind, name, redirect_uris, auth_method, secret_hash, metadata,
                               cimd_fetched_at, cimd_expires_at)
    VALUES (${client.id}, 'cimd', ${client.name}, ${client.redirect_uris}::text[], 'none', NULL,
            ${JSON.stringify(client.metadata)}::text::jsonb, now(), ${client.expires_at})
    ON CONFLICT (id) DO UPDATE SET
      name = excluded.name, redirect_uris = excluded.redirect_uris, metadata = excluded.metadata,
      cimd_fetched_at = now(), cimd_expires_at = excluded.cimd_expires_at
    WHERE oauth_clients.kind = 'cimd'
    RETURNING id, kind, name, redirect_uris, auth_method, secret_hash, metadata, cimd_expires_at, created_at`;
  return rows[0]!;
}

/** The client with this id, or null. */
export async function selectClient(db: Db, id: string): Promise<ClientRow | null> {
  const rows = await db.query<ClientRow>(
    `SELECT ${CLIENT_COLUMNS} FROM oauth_clients WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** An authorization code as stored. */
export type CodeRow = {
  code_hash: string;
  client_id: string;
  account_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scope: string;
  space_ids: string[];
  expires_at: Date;
  used_at: Date | null;
  grant_id: string | null;
};

/** Stores a new authorization code. */
export async function insertCode(
  db: Db,
  code: Omit<CodeRow, "used_at" | "grant_id">,
): Promise<void> {
  await db`
    INSERT INTO oauth_codes (code_hash, client_id, account_id, redirect_uri, code_challenge,
                             resource, scope, space_ids, expires_at)
    VALUES (${code.code_hash}, ${code.client_id}, ${code.account_id}, ${code.redirect_uri},
            ${code.code_challenge}, ${code.resource}, ${code.scope}, ${code.space_ids}::text[],
            ${code.expires_at})`;
}

/** The code with this hash, used or not, or null. */
export async function selectCode(db: Db, codeHash: string): Promise<CodeRow | null> {
  const rows = await db<CodeRow>`
    SELECT code_hash, client_id, account_id, redirect_uri, code_challenge, resource, scope,
           space_ids, expires_at, used_at, grant_id
    FROM oauth_codes WHERE code_hash = ${codeHash}`;
  return rows[0] ?? null;
}

/** Marks a code used, once: false when another request used it first. */
export async function markCodeUsed(db: Db, codeHash: string, grantId: string): Promise<boolean> {
  const rows = await db`
    UPDATE oauth_codes SET used_at = now(), grant_id = ${grantId}
    WHERE code_hash = ${codeHash} AND used_at IS NULL
    RETURNING 1`;
  return rows.length > 0;
}

/** Deletes codes that expired more than a day ago (they are kept a while to detect reuse). */
export async function deleteStaleCodes(db: Db): Promise<void> {
  await db`DELETE FROM oauth_codes WHERE expires_at < now() - interval '1 day'`;
}

/** A grant: an account's consent to a client for some spaces, and its token family. */
export type GrantRow = {
  id: string;
  account_id: string;
  client_id: string;
  space_ids: string[];
  scope: string;
  resource: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

/** Stores a new grant. */
export async function insertGrant(
  db: Db,
  grant: Pick<GrantRow, "id" | "account_id" | "client_id" | "space_ids" | "scope" | "resource">,
): Promise<void> {
  await db`
    INSERT INTO oauth_grants (id, account_id, client_id, space_ids, scope, resource)
    VALUES (${grant.id}, ${grant.account_id}, ${grant.client_id}, ${grant.space_ids}::text[],
            ${grant.scope}, ${grant.resource})`;
  await db`UPDATE oauth_clients SET last_used_at = now() WHERE id = ${grant.client_id}`;
}

/** Revokes a grant and so every token of its family; a no-op when already revoked. */
export async function revokeGrantRow(db: Db, grantId: string): Promise<void> {
  await db`UPDATE oauth_grants SET revoked_at = now() WHERE id = ${grantId} AND revoked_at IS NULL`;
}

/** Revokes one of an account's grants; false when it has no such live grant. */
export async function revokeAccountGrant(
  db: Db,
  accountId: string,
  grantId: string,
): Promise<boolean> {
  const rows = await db`
    UPDATE oauth_grants SET revoked_at = now()
    WHERE id = ${grantId} AND account_id = ${accountId} AND revoked_at IS NULL
    RETURNING 1`;
  return rows.length > 0;
}

/** A live grant with its client's name, as the connected-apps page lists it. */
export type ConnectedAppRow = GrantRow & { client_name: string; client_kind: "dcr" | "cimd" };

/** An account's live grants, newest first. */
export function selectLiveGrantsOf(db: Db, accountId: string): Promise<ConnectedAppRow[]> {
  return db<ConnectedAppRow>`
    SELECT g.id, g.account_id, g.client_id, g.space_ids, g.scope, g.resource, g.created_at,
           g.last_used_at, g.revoked_at, c.name AS client_name, c.kind AS client_kind
    FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
    WHERE g.account_id = ${accountId} AND g.revoked_at IS NULL
    ORDER BY g.created_at DESC`;
}

/** Stores a new access token of a grant. */
export async function insertAccessToken(
  db: Db,
  token: { token_hash: string; grant_id: string; audience: string; expires_at: Date },
): Promise<void> {
  await db`
    INSERT INTO oauth_access_tokens (token_hash, grant_id, audience, expires_at)
    VALUES (${token.token_hash}, ${token.grant_id}, ${token.audience}, ${token.expires_at})`;
}

/** An access token with what the resource server needs of its grant and client. */
export type AccessTokenRow = {
  grant_id: string;
  audience: string;
  expires_at: Date;
  account_id: string;
  client_id: string;
  client_name: string;
  space_ids: string[];
  revoked_at: Date | null;
  last_used_at: Date | null;
};

/** The access token with this hash, joined to its grant and client, or null. */
export async function selectAccessToken(db: Db, hash: string): Promise<AccessTokenRow | null> {
  const rows = await db<AccessTokenRow>`
    SELECT t.grant_id, t.audience, t.expires_at, g.account_id, g.client_id, c.name AS client_name,
           g.space_ids, g.revoked_at, g.last_used_at
    FROM oauth_access_tokens t
    JOIN oauth_grants g ON g.id = t.grant_id
    JOIN oauth_clients c ON c.id = g.client_id
    WHERE t.token_hash = ${hash}`;
  return rows[0] ?? null;
}

/** Notes a grant's use, at most once a minute. */
export async function touchGrant(db: Db, grantId: string): Promise<void> {
  await db`
    UPDATE oauth_grants SET last_used_at = now()
    WHERE id = ${grantId} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`;
}

/** Stores a new refresh token of a grant. */
export async function insertRefreshToken(
  db: Db,
  token: { token_hash: string; grant_id: string; expires_at: Date },
): Promise<void> {
  await db`
    INSERT INTO oauth_refresh_tokens (token_hash, grant_id, expires_at)
    VALUES (${token.token_hash}, ${token.grant_id}, ${token.expires_at})`;
}

/** A refresh token with its grant. */
export type RefreshTokenRow = {
  token_hash: string;
  grant_id: string;
  expires_at: Date;
  rotated_at: Date | null;
  grant: GrantRow;
};

/** The refresh token with this hash and its grant, or null. */
export async function selectRefreshToken(db: Db, hash: string): Promise<RefreshTokenRow | null> {
  const rows = await db<Omit<RefreshTokenRow, "grant"> & Omit<GrantRow, "id">>`
    SELECT r.token_hash, r.grant_id, r.expires_at, r.rotated_at, g.account_id, g.client_id,
           g.space_ids, g.scope, g.resource, g.created_at, g.last_used_at, g.revoked_at
    FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.id = r.grant_id
    WHERE r.token_hash = ${hash}`;
  const row = rows[0];
  if (!row) return null;
  const { token_hash, grant_id, expires_at, rotated_at, ...grant } = row;
  return { token_hash, grant_id, expires_at, rotated_at, grant: { id: grant_id, ...grant } };
}

/** Marks a refresh token rotated out, once: false when another request rotated it first. */
export async function markRefreshTokenRotated(db: Db, hash: string): Promise<boolean> {
  const rows = await db`
    UPDATE oauth_refresh_tokens SET rotated_at = now()
    WHERE token_hash = ${hash} AND rotated_at IS NULL
    RETURNING 1`;
  return rows.length > 0;
}

/** The grant of an access or refresh token with this hash, or null. */
export async function selectGrantOfTokenHash(
  db: Db,
  hash: string,
): Promise<{ grant_id: string; client_id: string } | null> {
  const rows = await db<{ grant_id: string; client_id: string }>`
    SELECT g.id AS grant_id, g.client_id FROM oauth_grants g
    WHERE g.id = (SELECT grant_id FROM oauth_access_tokens WHERE token_hash = ${hash}
                  UNION ALL
                  SELECT grant_id FROM oauth_refresh_tokens WHERE token_hash = ${hash}
                  LIMIT 1)`;
  return rows[0] ?? null;
}

/** Takes a team's spaces out of an account's grants (the account left the team). */
export async function removeTeamSpacesFromGrants(
  db: Db,
  accountId: string,
  teamId: string,
): Promise<void> {
  await db`
    UPDATE oauth_grants SET space_ids = ARRAY(
      SELECT s FROM unnest(space_ids) AS s
      WHERE s NOT IN (SELECT id FROM wikis WHERE owner_team_id = ${teamId}))
    WHERE account_id = ${accountId}
      AND space_ids && ARRAY(SELECT id FROM wikis WHERE owner_team_id = ${teamId})`;
}

/** Revokes every live grant of an account (after a password change, when asked to). */
export async function revokeAllGrantsOf(db: Db, accountId: string): Promise<number> {
  const rows = await db`
    UPDATE oauth_grants SET revoked_at = now() WHERE account_id = ${accountId} AND revoked_at IS NULL
    RETURNING 1`;
  return rows.length;
}

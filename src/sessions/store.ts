import type { AccountRow } from "../db/account_row.ts";
import type { Db } from "../db/db.ts";

/** A session as stored: its id only as a hash. */
export type SessionRow = {
  id_hash: string;
  account_id: string;
  created_at: Date;
  expires_at: Date;
  last_seen_at: Date;
  user_agent: string;
};

/** Stores a new session. */
export async function insertSession(
  db: Db,
  session: Pick<SessionRow, "id_hash" | "account_id" | "expires_at" | "user_agent">,
): Promise<SessionRow> {
  const rows = await db<SessionRow>`
    INSERT INTO sessions (id_hash, account_id, expires_at, user_agent)
    VALUES (${session.id_hash}, ${session.account_id}, ${session.expires_at}, ${session.user_agent})
    RETURNING id_hash, account_id, created_at, expires_at, last_seen_at, user_agent`;
  return rows[0]!;
}

/** The unexpired session with this id hash and its account, or null. */
export async function selectLiveSession(
  db: Db,
  idHash: string,
): Promise<{ session: SessionRow; account: AccountRow } | null> {
  const rows = await db<SessionRow & { email: string; name: string; account_created_at: Date }>`
    SELECT s.id_hash, s.account_id, s.created_at, s.expires_at, s.last_seen_at, s.user_agent,
           a.email, a.name, a.created_at AS account_created_at
    FROM sessions s JOIN accounts a ON a.id = s.account_id
    WHERE s.id_hash = ${idHash} AND s.expires_at > now()`;
  const row = rows[0];
  if (!row) return null;
  const { email, name, account_created_at, ...session } = row;
  return { session, account: { id: row.account_id, email, name, created_at: account_created_at } };
}

/** Notes a session's use and moves its expiry to `expiresAt` (never earlier than it was). */
export async function touchSession(db: Db, idHash: string, expiresAt: Date): Promise<void> {
  await db`
    UPDATE sessions SET last_seen_at = now(), expires_at = greatest(expires_at, ${expiresAt})
    WHERE id_hash = ${idHash}`;
}

/** Deletes a session; a no-op when there is none. */
export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db`DELETE FROM sessions WHERE id_hash = ${idHash}`;
}

/** The id and password hash of the account with this email (any case), or null. */
export async function selectPasswordOf(
  db: Db,
  email: string,
): Promise<{ id: string; password_hash: string | null } | null> {
  const rows = await db<{ id: string; password_hash: string | null }>`
    SELECT id, password_hash FROM accounts WHERE lower(email) = lower(${email})`;
  return rows[0] ?? null;
}

/** Replaces an account's password hash (a rehash with today's parameters). */
export async function updatePasswordHash(db: Db, accountId: string, hash: string): Promise<void> {
  await db`UPDATE accounts SET password_hash = ${hash} WHERE id = ${accountId}`;
}

/** Counts a failed sign-in for a key; a window older than `windowSeconds` starts again at 1. */
export async function incrementLoginFailures(
  db: Db,
  key: string,
  windowSeconds: number,
): Promise<void> {
  await db`
    INSERT INTO login_attempts AS a (key, failures) VALUES (${key}, 1)
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN a.window_started_at > now() - ${windowSeconds}::int * interval '1 second'
        THEN a.failures + 1 ELSE 1 END,
      window_started_at = CASE
        WHEN a.window_started_at > now() - ${windowSeconds}::int * interval '1 second'
        THEN a.window_started_at ELSE now() END`;
}

/** The failures of each key in its current window, with the seconds until that window ends. */
export function selectLoginFailures(
  db: Db,
  keys: string[],
  windowSeconds: number,
): Promise<{ key: string; failures: number; seconds_left: number }[]> {
  return db`
    SELECT key, failures,
      ceil(extract(epoch FROM window_started_at + ${windowSeconds}::int * interval '1 second'
        - now()))::int AS seconds_left
    FROM login_attempts
    WHERE key = ANY(${keys}::text[])
      AND window_started_at > now() - ${windowSeconds}::int * interval '1 second'`;
}

/** Forgets a key's failures (after a successful sign-in). */
export async function deleteLoginFailures(db: Db, key: string): Promise<void> {
  await db`DELETE FROM login_attempts WHERE key = ${key}`;
}

/** Deletes every session of an account but one (after a password change). */
export async function deleteOtherSessions(
  db: Db,
  accountId: string,
  keepIdHash: string,
): Promise<void> {
  await db`DELETE FROM sessions WHERE account_id = ${accountId} AND id_hash <> ${keepIdHash}`;
}

/** The password hash of an account, or null (no password, or no such account). */
export async function selectPasswordHash(db: Db, accountId: string): Promise<string | null> {
  const rows = await db<{ password_hash: string | null }>`
    SELECT password_hash FROM accounts WHERE id = ${accountId}`;
  return rows[0]?.password_hash ?? null;
}

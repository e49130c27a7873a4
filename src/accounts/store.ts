import type { AccountRow } from "../db/account_row.ts";
import type { Db } from "../db/db.ts";

/** An account as stored (without its password hash). */

/** Inserts an account; null when the email is taken. */
export async function insertAccount(
  db: Db,
  account: { id: string; email: string; name: string; passwordHash: string | null },
): Promise<AccountRow | null> {
  const rows = await db<AccountRow>`
    INSERT INTO accounts (id, email, name, password_hash)
    VALUES (${account.id}, ${account.email}, ${account.name}, ${account.passwordHash})
    ON CONFLICT DO NOTHING
    RETURNING id, email, name, created_at`;
  return rows[0] ?? null;
}

/** The account with this id, or null. */
export async function selectAccount(db: Db, id: string): Promise<AccountRow | null> {
  const rows = await db<
    AccountRow
  >`SELECT id, email, name, created_at FROM accounts WHERE id = ${id}`;
  return rows[0] ?? null;
}

/** The account with this email (any case), or null. */
export async function selectAccountByEmail(db: Db, email: string): Promise<AccountRow | null> {
  const rows = await db<AccountRow>`
    SELECT id, email, name, created_at FROM accounts WHERE lower(email) = lower(${email})`;
  return rows[0] ?? null;
}

/** Sets an account's display name. */
export async function updateAccountName(db: Db, id: string, name: string): Promise<void> {
  await db`UPDATE accounts SET name = ${name} WHERE id = ${id}`;
}

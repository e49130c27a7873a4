import { z } from "zod";
import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import type { AccountRow } from "../db/account_row.ts";
import { insertAccount } from "./store.ts";

const emailSchema = z.email().max(254);

/** Creates an account; `bad_request` for a malformed email, `account_exists` when taken. */
export async function createAccount(
  db: Db,
  input: { email: string; name?: string; passwordHash?: string | null },
): Promise<AccountRow> {
  const email = input.email.trim();
  if (!emailSchema.safeParse(email).success) {
    throw new AppError("bad_request", `"${email}" is not an email address`);
  }
  const account = await insertAccount(db, {
    id: `acct_${crypto.randomUUID().replace(/-/g, "")}`,
    email,
    name: input.name?.trim() || email.slice(0, email.indexOf("@")),
    passwordHash: input.passwordHash ?? null,
  });
  if (!account) {
    throw new AppError("account_exists", `An account with email "${email}" already exists`);
  }
  return account;
}

import { z } from "zod";
import { createAccount } from "../accounts/accounts.ts";
import type { AccountRow } from "../db/account_row.ts";
import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import { checkLoginLimit, clearLoginFailures, recordLoginFailure } from "./login_limit.ts";
import {
  hashPassword,
  needsRehash,
  PASSWORD_PARAMS,
  type ScryptParams,
  verifyPassword,
} from "./password.ts";
import { selectPasswordOf, updatePasswordHash } from "./store.ts";
import { countRequest } from "../limits/mod.ts";

/** The sign-up form. */
export const signUpSchema = z.object({
  email: z.string({ error: "Enter your email address" }).trim().min(1, "Enter your email address")
    .max(254, "This email is too long"),
  name: z.string({ error: "Enter a name" }).trim().max(100, "Use at most 100 characters").default(
    "",
  ),
  password: z.string({ error: "Choose a password" })
    .min(10, "Use at least 10 characters")
    .max(1000, "Use at most 1,000 characters"),
});

/** Messages for the fields of a form that was not accepted, by field name. */
export type FieldErrors = Record<string, string>;

/** Why a sign-up was not accepted: the form's mistakes, or too many sign-ups from the address. */
export type SignUpRefusal =
  | { ok: false; status: 400; errors: FieldErrors }
  | { ok: false; status: 429; retryAfter: number };

/**
 * Creates an account with a password. `account` is null when the email already has one: the
 * caller answers exactly as for a new account (without a session), so that sign-up does not
 * tell who has an account here. Each well-formed attempt counts against the address's hourly
 * sign-up budget (a taken email too, so the form is no faster oracle than the budget allows).
 * The password is hashed with `params`, the configured cost.
 */
export async function signUp(
  db: Db,
  form: Record<string, unknown>,
  limit: { ip: string; perHour: number },
  params: ScryptParams = PASSWORD_PARAMS,
): Promise<{ ok: true; account: AccountRow | null } | SignUpRefusal> {
  const parsed = signUpSchema.safeParse(form);
  if (!parsed.success) return { ok: false, status: 400, errors: fieldErrors(parsed.error) };
  const { email, name, password } = parsed.data;
  if (password.trim().toLowerCase() === email.toLowerCase()) {
    return {
      ok: false,
      status: 400,
      errors: { password: "Your password must not be your email address" },
    };
  }
  const counted = await countRequest(db, `signup-ip:${limit.ip}`, 3600);
  if (counted.count > limit.perHour) {
    const elapsed = (counted.now.getTime() - counted.window_started_at.getTime()) / 1000;
    return { ok: false, status: 429, retryAfter: Math.max(1, Math.ceil(3600 - elapsed)) };
  }
  const passwordHash = await hashPassword(password, params);
  try {
    return { ok: true, account: await createAccount(db, { email, name, passwordHash }) };
  } catch (error) {
    if (error instanceof AppError && error.code === "account_exists") {
      return { ok: true, account: null };
    }
    if (error instanceof AppError && error.code === "bad_request") {
      return { ok: false, status: 400, errors: { email: `"${email}" is not an email address` } };
    }
    throw error;
  }
}

/** Why a sign-in was refused. */
export type SignInRefusal =
  | { ok: false; reason: "incomplete" | "invalid" }
  | { ok: false; reason: "rate_limited"; retryAfter: number };

/**
 * Checks an email and password; counts failures per email and per address, and refuses
 * further attempts over the limit. One message for unknown emails and wrong passwords, and
 * the same hashing cost for both, so neither the answer nor its timing reveals accounts.
 */
export async function signIn(
  db: Db,
  input: { email: unknown; password: unknown; ip: string },
  params: ScryptParams = PASSWORD_PARAMS,
): Promise<{ ok: true; accountId: string } | SignInRefusal> {
  const email = typeof input.email === "string" ? input.email.trim() : "";
  const password = typeof input.password === "string" ? input.password : "";
  if (!email || !password || email.length > 254 || password.length > 1000) {
    return { ok: false, reason: "incomplete" };
  }
  const subject = { email, ip: input.ip };
  const limit = await checkLoginLimit(db, subject);
  if (!limit.ok) return { ok: false, reason: "rate_limited", retryAfter: limit.retryAfter };
  const account = await selectPasswordOf(db, email);
  const valid = await verifyPassword(password, account?.password_hash ?? null, params);
  if (!account || !valid) {
    await recordLoginFailure(db, subject);
    return { ok: false, reason: "invalid" };
  }
  await clearLoginFailures(db, subject);
  if (needsRehash(account.password_hash!, params)) {
    await updatePasswordHash(db, account.id, await hashPassword(password, params));
  }
  return { ok: true, accountId: account.id };
}

function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

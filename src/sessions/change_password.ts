import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { hashPassword, PASSWORD_PARAMS, type ScryptParams, verifyPassword } from "./password.ts";
import { signUpSchema } from "./sign_in.ts";
import { deleteOtherSessions, selectPasswordHash, updatePasswordHash } from "./store.ts";
import { revokeAllTokensOf } from "../auth/mod.ts";
import { revokeAllGrantsOf } from "../oauth/mod.ts";

/**
 * Changes an account's password after checking the current one, and signs out every other
 * session (a password change is what a person does when they fear someone else is in). With
 * `revokeCredentials`, the account's tokens and OAuth grants are revoked too: whoever had the
 * password could have made them. Returns how many of each were revoked.
 */
export async function changePassword(
  db: Db,
  input: {
    accountId: string;
    sessionToken: string;
    current: unknown;
    next: unknown;
    revokeCredentials?: boolean;
  },
  params: ScryptParams = PASSWORD_PARAMS,
): Promise<
  { ok: true; revoked: { tokens: number; grants: number } } | {
    ok: false;
    errors: Record<string, string>;
  }
> {
  const current = typeof input.current === "string" ? input.current : "";
  const stored = await selectPasswordHash(db, input.accountId);
  const valid = await verifyPassword(current, stored, params);
  if (!valid) return { ok: false, errors: { current_password: "This is not your password" } };
  const parsed = signUpSchema.shape.password.safeParse(input.next);
  if (!parsed.success) {
    return { ok: false, errors: { new_password: parsed.error.issues[0]!.message } };
  }
  const hash = await hashPassword(parsed.data, params);
  const keep = await sha256Hex(input.sessionToken);
  return await db.transaction(async (tx) => {
    await updatePasswordHash(tx, input.accountId, hash);
    await deleteOtherSessions(tx, input.accountId, keep);
    if (!input.revokeCredentials) return { ok: true, revoked: { tokens: 0, grants: 0 } };
    return {
      ok: true,
      revoked: {
        tokens: await revokeAllTokensOf(tx, input.accountId),
        grants: await revokeAllGrantsOf(tx, input.accountId),
      },
    };
  });
}

/**
 * Sets an account's password as the operator (`deno task admin set-password`): how an account
 * made by `create-account` gets one. Every session of the account is signed out.
 */
export async function setPassword(
  db: Db,
  accountId: string,
  password: string,
  params: ScryptParams = PASSWORD_PARAMS,
): Promise<void> {
  const parsed = signUpSchema.shape.password.safeParse(password);
  if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]!.message);
  const hash = await hashPassword(parsed.data, params);
  await db.transaction(async (tx) => {
    await updatePasswordHash(tx, accountId, hash);
    await deleteOtherSessions(tx, accountId, "");
  });
}

import type { Db } from "../db/db.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { hashPassword, PASSWORD_PARAMS, type ScryptParams, verifyPassword } from "./password.ts";
import { signUpSchema } from "./sign_in.ts";
import { deleteOtherSessions, selectPasswordHash, updatePasswordHash } from "./store.ts";

/**
 * Changes an account's password after checking the current one, and signs out every other
 * session (a password change is what a person does when they fear someone else is in).
 */
export async function changePassword(
  db: Db,
  input: { accountId: string; sessionToken: string; current: unknown; next: unknown },
  params: ScryptParams = PASSWORD_PARAMS,
): Promise<{ ok: true } | { ok: false; errors: Record<string, string> }> {
  const current = typeof input.current === "string" ? input.current : "";
  const stored = await selectPasswordHash(db, input.accountId);
  const valid = await verifyPassword(current, stored, params);
  if (!valid) return { ok: false, errors: { current_password: "This is not your password" } };
  const parsed = signUpSchema.shape.password.safeParse(input.next);
  if (!parsed.success) {
    return { ok: false, errors: { new_password: parsed.error.issues[0]!.message } };
  }
  await updatePasswordHash(db, input.accountId, await hashPassword(parsed.data, params));
  await deleteOtherSessions(db, input.accountId, await sha256Hex(input.sessionToken));
  return { ok: true };
}

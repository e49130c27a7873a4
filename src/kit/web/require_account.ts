import type { Context } from "hono";
import { AppError } from "../../errors.ts";

/**
 * The signed-in account of a web request (set by the session middleware); `unauthorized` (a
 * redirect to sign in) if none.
 */
export function requireAccount(c: Context) {
  const account = c.get("account");
  if (!account) throw new AppError("unauthorized", "Sign in to see this page");
  return account;
}

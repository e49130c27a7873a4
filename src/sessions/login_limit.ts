import type { Db } from "../db/db.ts";
import { deleteLoginFailures, incrementLoginFailures, selectLoginFailures } from "./store.ts";

/**
 * Failed sign-ins allowed per window before further attempts are refused. Per email: slows
 * guessing one account's password. Per IP: slows trying one password on many accounts; set
 * higher, since many people can share an address (an office, a mobile carrier).
 */
export const LOGIN_LIMITS = { email: 10, ip: 50, windowSeconds: 15 * 60 } as const;

/** Who is signing in: the email typed and the client's address. */
export type LoginSubject = { email: string; ip: string };

/**
 * Whether another attempt may be made now; if not, how many seconds until it may. Checked
 * before the password is hashed, so a blocked guess costs no CPU. Two attempts racing past
 * the check can each still count: the limit may be overshot by the number of concurrent
 * requests, never more.
 */
export async function checkLoginLimit(
  db: Db,
  subject: LoginSubject,
): Promise<{ ok: true } | { ok: false; retryAfter: number }> {
  const keys = keysOf(subject);
  const rows = await selectLoginFailures(db, [keys.email, keys.ip], LOGIN_LIMITS.windowSeconds);
  const blocked = rows.filter((r) =>
    r.failures >= (r.key === keys.email ? LOGIN_LIMITS.email : LOGIN_LIMITS.ip)
  );
  if (blocked.length === 0) return { ok: true };
  return { ok: false, retryAfter: Math.max(1, ...blocked.map((r) => r.seconds_left)) };
}

/** Counts a failed sign-in against the email and the address. */
export async function recordLoginFailure(db: Db, subject: LoginSubject): Promise<void> {
  const keys = keysOf(subject);
  await incrementLoginFailures(db, keys.email, LOGIN_LIMITS.windowSeconds);
  await incrementLoginFailures(db, keys.ip, LOGIN_LIMITS.windowSeconds);
}

/**
 * Forgets the email's failures after a successful sign-in. The address keeps its count: else
 * one attacker could sign in to their own account between guesses to reset it.
 */
export async function clearLoginFailures(db: Db, subject: LoginSubject): Promise<void> {
  await deleteLoginFailures(db, keysOf(subject).email);
}

function keysOf(subject: LoginSubject): { email: string; ip: string } {
  return { email: `email:${subject.email.trim().toLowerCase()}`, ip: `ip:${subject.ip}` };
}

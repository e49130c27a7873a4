import { scryptAsync } from "@noble/hashes/scrypt.js";
import { decodeBase64url, encodeBase64url } from "../lib/base64url.ts";
import { constantTimeEqual } from "../lib/secrets.ts";

/**
 * scrypt at N = 2^15, r = 8, p = 1: 32 MiB and ~150 ms a hash on this 2-core machine, in pure
 * JS (no native addon, so it runs on Deno Deploy). The async form yields to the event loop
 * every 10 ms, so other requests go on meanwhile (the blocking form takes ~120 ms). argon2id
 * at OWASP's smallest setting (19 MiB, t = 2) took ~220 ms in the same library.
 */
export const PASSWORD_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };
const SALT_BYTES = 32;
const HASH_BYTES = 32;

/** Stands in for a missing or unreadable hash: matches nothing (its cost is set per call). */
const DUMMY = parseHash(
  "scrypt$32768$8$1$XtD2XqYC_pd3CCw3vaBr_x0lQ5tJSYwnAsePSvP9kak$H_Y3pBgg0_7GJVQvhJpRRKfuUrG8kIawq1qnf-APBAw",
)!;

/**
 * Hashes a password into a self-describing `scrypt$N$r$p$salt$hash` string (base64url), with
 * today's parameters unless others are given.
 */
export async function hashPassword(
  password: string,
  params: ScryptParams = PASSWORD_PARAMS,
): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, params);
  const { N, r, p } = params;
  return `scrypt$${N}$${r}$${p}$${encodeBase64url(salt)}$${encodeBase64url(hash)}`;
}

/**
 * Whether the password matches the stored hash, compared in constant time. A missing hash
 * (an account without a password) costs the same as a wrong password, so timing does not
 * tell which emails have accounts: the dummy is derived at the cost new hashes get.
 */
export async function verifyPassword(
  password: string,
  stored: string | null,
  params: ScryptParams = PASSWORD_PARAMS,
): Promise<boolean> {
  const parsed = (stored && parseHash(stored)) || { ...DUMMY, params };
  const actual = await derive(password, parsed.salt, parsed.params);
  return parsed.salt !== DUMMY.salt && constantTimeEqual(actual, parsed.hash);
}

/** Whether a stored hash was made with other parameters than today's (rehash at sign-in). */
export function needsRehash(stored: string, current: ScryptParams = PASSWORD_PARAMS): boolean {
  const params = parseHash(stored)?.params;
  return !params || params.N !== current.N || params.r !== current.r || params.p !== current.p;
}

/** scrypt's cost (N, a power of two), block size (r) and parallelism (p). */
export type ScryptParams = { N: number; r: number; p: number };

function derive(password: string, salt: Uint8Array, params: ScryptParams): Promise<Uint8Array> {
  // NIST SP 800-63B §5.1.1.2: normalise Unicode so the same password typed on another
  // keyboard or system gives the same bytes.
  const bytes = new TextEncoder().encode(password.normalize("NFKC"));
  return scryptAsync(bytes, salt, { ...params, dkLen: HASH_BYTES });
}

function parseHash(
  stored: string,
): { params: ScryptParams; salt: Uint8Array; hash: Uint8Array } | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  // Bounds keep a corrupted row from asking for gigabytes of memory.
  const sane = Number.isInteger(Math.log2(N)) && N >= 2 ** 10 && N <= 2 ** 20 &&
    Number.isInteger(r) && r >= 1 && r <= 32 && Number.isInteger(p) && p >= 1 && p <= 16;
  if (!sane) return null;
  try {
    return {
      params: { N, r, p },
      salt: decodeBase64url(parts[4]!),
      hash: decodeBase64url(parts[5]!),
    };
  } catch {
    return null;
  }
}

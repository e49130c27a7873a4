/**
 * The security primitives every credential of the service is made with: random secrets and
 * ids, and comparisons that do not leak where two values differ. One place, so a reviewer
 * checks the entropy and the comparison once.
 *
 * @example
 * ```ts
 * const token = "wk_" + randomSecret(); // 256 bits, URL-safe
 * const id = randomId("tok_"); // not secret: an opaque, unique row id
 * constantTimeTextEqual(given, expected);
 * ```
 */
import { encodeBase64url } from "./base64url.ts";

/**
 * `bytes` random bytes from the platform CSPRNG as base64url (no padding). 32 bytes (256
 * bits) by default: beyond guessing, even with the hash of it in hand.
 */
export function randomSecret(bytes = 32): string {
  return encodeBase64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/**
 * An opaque row id, `prefix` and `length` hex digits of a random UUID (122 random bits in
 * all). Ids are not secrets: they name rows in URLs and logs; the secret is always separate.
 */
export function randomId(prefix: string, length = 20): string {
  return prefix + crypto.randomUUID().replace(/-/g, "").slice(0, length);
}

/**
 * Whether two byte strings are equal, in time that depends only on their length: an early
 * exit would tell an attacker how many leading bytes of a guess were right.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** `constantTimeEqual` over the UTF-8 bytes of two texts (tokens, hashes in hex). */
export function constantTimeTextEqual(a: string, b: string): boolean {
  const encoder = new TextEncoder();
  return constantTimeEqual(encoder.encode(a), encoder.encode(b));
}

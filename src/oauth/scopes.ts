/** The scopes this server grants: reading the spaces the user picks. Kept minimal (R9). */
export const SUPPORTED_SCOPES: readonly string[] = ["wiki:read"];

/** Scopes clients ask for that we accept and ignore: refresh tokens are always issued. */
const IGNORED_SCOPES = new Set(["offline_access"]);

/**
 * The scope to grant for a requested one: unknown scopes are refused, `offline_access` is
 * dropped (refresh tokens come anyway), and nothing asked means `wiki:read`.
 */
export function grantedScope(requested: string | undefined): string | { unknown: string } {
  const asked = (requested ?? "").split(" ").filter(Boolean);
  const unknown = asked.find((s) => !SUPPORTED_SCOPES.includes(s) && !IGNORED_SCOPES.has(s));
  if (unknown) return { unknown };
  const kept = asked.filter((s) => SUPPORTED_SCOPES.includes(s));
  return kept.length > 0 ? [...new Set(kept)].join(" ") : SUPPORTED_SCOPES.join(" ");
}

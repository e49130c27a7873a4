/**
 * The scopes this server grants: reading the spaces the user picks, and proposing edits to
 * them (`wiki:write`, which the person allows apart on the consent page). Kept minimal (R9).
 */
export const SUPPORTED_SCOPES: readonly string[] = ["wiki:read", "wiki:write"];

/** What a client gets when it asks for nothing, and what the 401 challenge names: reading. */
export const DEFAULT_SCOPES: readonly string[] = ["wiki:read"];

/**
 * The scope a grant gets once the person answered: `wiki:write` only when the client asked
 * for it and the person ticked it; reading always.
 */
export function consentedScope(asked: string, allowWrite: boolean): string {
  const scopes = asked.split(" ").filter((s) => s && (s !== "wiki:write" || allowWrite));
  return [...new Set(["wiki:read", ...scopes])].join(" ");
}

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
  return kept.length > 0 ? [...new Set(kept)].join(" ") : DEFAULT_SCOPES.join(" ");
}

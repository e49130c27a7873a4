import type { Db } from "../db/db.ts";
import { selectSpacesOf, type WikiSummaryRow } from "../wikis/store.ts";
import { resolveToken, type TokenRefusal } from "./tokens.ts";

/** Who is calling, as resolved from `Authorization: Bearer …` (one model for MCP and REST). */
export type Credential =
  | { kind: "account_token"; id: string; accountId: string }
  | { kind: "space_token"; id: string; accountId: string; spaceId: string };

/** Why no credential could be resolved: `missing` gets a bare challenge, the rest `invalid_token`. */
export type CredentialFailure = "missing" | "malformed" | TokenRefusal;

/** Resolves the `Authorization` header of a request. */
export async function resolveCredential(
  db: Db,
  authorization: string | undefined,
): Promise<{ ok: true; credential: Credential } | { ok: false; reason: CredentialFailure }> {
  if (!authorization) return { ok: false, reason: "missing" };
  const match = /^Bearer +([\x21-\x7e]+)$/i.exec(authorization.trim());
  if (!match) return { ok: false, reason: "malformed" };
  const resolved = await resolveToken(db, match[1]!);
  if (!resolved.ok) return resolved;
  const t = resolved.token;
  return {
    ok: true,
    credential: t.kind === "space"
      ? { kind: "space_token", id: t.id, accountId: t.account_id, spaceId: t.wiki_id! }
      : { kind: "account_token", id: t.id, accountId: t.account_id },
  };
}

/** A space the credential reaches, with the account's role in it. */
export type Space = WikiSummaryRow & { role: "owner" | "admin" | "member" };

/**
 * The spaces a credential reaches now: an account token, all of its account's spaces; a
 * space token, its one space while its account can still reach it (a member who leaves a
 * team loses the space's tokens with it).
 */
export async function spacesOf(db: Db, credential: Credential): Promise<Space[]> {
  const spaces = await selectSpacesOf(db, credential.accountId);
  return credential.kind === "space_token"
    ? spaces.filter((s) => s.id === credential.spaceId)
    : spaces;
}

import { accountWrites } from "../access/access_policy.ts";
import type { Credential } from "../access/credential.ts";
import type { Db } from "../db/db.ts";
import { selectAgentProposals, selectCredentialGrant } from "./store.ts";

/** The OAuth scope that lets an assistant propose edits (asked for apart from `wiki:read`). */
export const WRITE_SCOPE = "wiki:write";

/** What a credential may do with a proposed edit in one space. */
export type ProposeDecision =
  | { ok: true; direct: boolean }
  | { ok: false; reason: string };

/**
 * The one rule for agents' edits, on every surface: the space must take proposals (its
 * settings), and the credential must have been granted writing (a token with the
 * `read_propose` scope, an OAuth grant with `wiki:write`). A proposal then waits for a
 * person, unless the space's owner turned on direct writes for this very space token.
 * The caller has already checked that the credential reaches the space.
 */
export function decidePropose(facts: {
  spaceId: string;
  /** Whether the credential's account may write the space (a viewer may not). */
  accountWrites: boolean;
  proposalsOn: boolean;
  credentialKind: Credential["kind"];
  scope: string | null;
  directWrites: boolean;
}): ProposeDecision {
  if (!facts.accountWrites) {
    return {
      ok: false,
      reason:
        `You can read space "${facts.spaceId}" but not change it: ask an owner or admin for a member's role`,
    };
  }
  if (!facts.proposalsOn) {
    return {
      ok: false,
      reason:
        `Space "${facts.spaceId}" does not take edits from assistants: its owners turned proposals off in its settings`,
    };
  }
  const scopes = (facts.scope ?? "").split(" ");
  const mayWrite = facts.credentialKind === "oauth"
    ? scopes.includes(WRITE_SCOPE)
    : scopes.includes("read_propose");
  if (!mayWrite) {
    return {
      ok: false,
      reason: facts.credentialKind === "oauth"
        ? `This connection may only read: sign in again and allow "${WRITE_SCOPE}" to propose edits`
        : 'This token may only read: create a token with the scope "read and propose" to propose edits',
    };
  }
  return { ok: true, direct: facts.credentialKind === "space_token" && facts.directWrites };
}

/** Gathers the facts for `decidePropose` from the store and decides. */
export async function mayPropose(
  db: Db,
  credential: Credential,
  spaceId: string,
): Promise<ProposeDecision> {
  const [writes, proposalsOn, grant] = await Promise.all([
    accountWrites(db, credential.accountId, spaceId),
    selectAgentProposals(db, spaceId),
    selectCredentialGrant(db, credential.kind, credential.id),
  ]);
  return decidePropose({
    spaceId,
    accountWrites: writes,
    proposalsOn,
    credentialKind: credential.kind,
    scope: grant?.scope ?? null,
    directWrites: grant?.direct_writes ?? false,
  });
}

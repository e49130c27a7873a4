import type { Role } from "../access/role.ts";
import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import { randomId, randomSecret } from "../lib/secrets.ts";
import { sha256Hex } from "../lib/sha256.ts";
import {
  countInviteLinkUse,
  deleteInvitation,
  insertInviteLink,
  type InviteLinkRow,
  lockMembers,
  revokeInviteLinkRow,
  selectInviteLinkByHash,
  selectLiveInviteLinks,
  selectMembers,
  upsertMembership,
} from "./store.ts";
import { requireManager } from "./teams.ts";

/** How long a new link works unless its maker says otherwise. */
export const INVITE_LINK_DAYS = 7;

/** Roles a link may give: never owner (an owner is made by another owner, by name). */
export const LINK_ROLES = ["member", "viewer", "admin"] as const satisfies Role[];

/** A link as made: its secret is in `url`, shown to its maker and kept by nobody else. */
export type NewInviteLink = { url: string; link: InviteLinkRow };

/**
 * Makes an invitation link to the team (owners and admins; an admin link only by an owner).
 * Whoever opens it signs up or signs in and joins with its role, until it expires or is
 * revoked. 256 random bits; only the SHA-256 of the secret is stored, as for tokens. A link
 * made for an `email` (sent in an invitation email) works once, and an owner's may make an
 * owner: it names its one person.
 */
export async function createInviteLink(
  db: Db,
  input: {
    actorId: string;
    teamId: string;
    role: Role;
    days?: number;
    baseUrl: string;
    email?: string;
  },
): Promise<NewInviteLink> {
  if (!input.email && !(LINK_ROLES as readonly string[]).includes(input.role)) {
    throw new AppError("bad_request", `A link can invite a member, a viewer or an admin`);
  }
  const days = input.days ?? INVITE_LINK_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > 30) {
    throw new AppError("bad_request", "A link works for 1 to 30 days");
  }
  return await db.transaction(async (tx) => {
    const actor = requireManager(await lockMembers(tx, input.teamId), input.actorId, input.teamId);
    if (input.role === "admin" && actor.role !== "owner") {
      throw new AppError("forbidden", `Only an owner of team "${input.teamId}" can invite admins`);
    }
    if (input.role === "owner" && actor.role !== "owner") {
      throw new AppError("forbidden", `Only an owner of team "${input.teamId}" can add an owner`);
    }
    const secret = "wk_inv_" + randomSecret();
    const link = await insertInviteLink(tx, {
      id: randomId("inv_"),
      teamId: input.teamId,
      role: input.role,
      secretHash: await sha256Hex(secret),
      createdBy: input.actorId,
      email: input.email ?? null,
    }, new Date(Date.now() + days * 86_400_000));
    return { url: `${input.baseUrl}/invite/${secret}`, link };
  });
}

/** The team's links that still work (owners and admins). */
export async function liveInviteLinks(db: Db, actorId: string, teamId: string) {
  requireManager(await selectMembers(db, teamId), actorId, teamId);
  return await selectLiveInviteLinks(db, teamId);
}

/** Revokes a link at once (owners and admins). */
export async function revokeInviteLink(
  db: Db,
  input: { actorId: string; teamId: string; id: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    requireManager(await lockMembers(tx, input.teamId), input.actorId, input.teamId);
    if (!await revokeInviteLinkRow(tx, input.teamId, input.id)) {
      throw new AppError("not_found", "That link is not there or was already revoked");
    }
  });
}

/** What a link says to whoever opens it. */
export type InviteLinkState =
  | { ok: true; link: InviteLinkRow & { team_name: string } }
  | { ok: false; reason: LinkRefusal };

/** Why a link does not work. */
export type LinkRefusal = "unknown" | "expired" | "revoked" | "used";

/** Reads the link a secret names, and whether it still works. */
export async function readInviteLink(db: Db, secret: string): Promise<InviteLinkState> {
  if (!secret.startsWith("wk_inv_") || secret.length > 100) return { ok: false, reason: "unknown" };
  const link = await selectInviteLinkByHash(db, await sha256Hex(secret));
  if (!link) return { ok: false, reason: "unknown" };
  if (link.revoked_at) return { ok: false, reason: "revoked" };
  if (link.expires_at.getTime() <= Date.now()) return { ok: false, reason: "expired" };
  if (link.email && link.uses > 0) return { ok: false, reason: "used" };
  return { ok: true, link };
}

/**
 * Joins the account to the link's team with the link's role. A member already there keeps
 * the role they have (a link never lowers or raises anyone). An emailed link is used up, and
 * the email invitation it came with is answered. Returns the team's id.
 */
export async function joinByInviteLink(
  db: Db,
  input: { accountId: string; secret: string },
): Promise<{ teamId: string; joined: boolean }> {
  const state = await readInviteLink(db, input.secret);
  if (!state.ok) throw new AppError("not_found", inviteLinkRefusal(state.reason));
  const { link } = state;
  return await db.transaction(async (tx) => {
    const members = await lockMembers(tx, link.team_id);
    if (members.some((m) => m.account_id === input.accountId)) {
      return { teamId: link.team_id, joined: false };
    }
    // Two people opening one emailed link at once: the use is counted once, by one of them.
    if (!await countInviteLinkUse(tx, link.id)) {
      throw new AppError("not_found", inviteLinkRefusal("used"));
    }
    await upsertMembership(tx, link.team_id, input.accountId, link.role);
    if (link.email) await deleteInvitation(tx, link.team_id, link.email);
    return { teamId: link.team_id, joined: true };
  });
}

/** Why a link no longer works, in words for the person who opened it. */
export function inviteLinkRefusal(reason: LinkRefusal): string {
  if (reason === "used") return "This invitation link was already used: ask the team for a new one";
  if (reason === "expired") return "This invitation link has expired: ask the team for a new one";
  if (reason === "revoked") return "This invitation link was revoked: ask the team for a new one";
  return "This invitation link is not valid: check that it was copied whole";
}

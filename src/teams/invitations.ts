import { z } from "zod";
import type { Role } from "../access/role.ts";
import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import { requireManager } from "./teams.ts";
import {
  deleteInvitation,
  type InvitationRow,
  lockMembers,
  revokeEmailedLinks,
  upsertInvitation,
  upsertMembership,
} from "./store.ts";

const emailSchema = z.email().max(254);

/**
 * Invites an email to a team: nobody joins a team without accepting. Owners and admins
 * invite; only an owner invites an owner. The answer is the same whether the email has an
 * account, has none yet (the invitation waits for it to sign up) or is already a member (then
 * nothing is stored): the form must not tell who has an account here. Returns whether an
 * invitation was stored (false: a member already), so that only a stored one is emailed.
 */
export async function inviteToTeam(
  db: Db,
  input: { actorId: string; teamId: string; email: string; role: Role },
): Promise<boolean> {
  const email = input.email.trim();
  if (!emailSchema.safeParse(email).success) {
    throw new AppError("bad_request", `"${email}" is not an email address`);
  }
  return await db.transaction(async (tx) => {
    const members = await lockMembers(tx, input.teamId);
    const actor = requireManager(members, input.actorId, input.teamId);
    if (input.role === "owner" && actor.role !== "owner") {
      throw new AppError("forbidden", `Only an owner of team "${input.teamId}" can add an owner`);
    }
    if (members.some((m) => m.email.toLowerCase() === email.toLowerCase())) return false;
    await upsertInvitation(tx, {
      teamId: input.teamId,
      email,
      role: input.role,
      invitedBy: actor.account_id,
    });
    return true;
  });
}

/**
 * Answers an invitation addressed to the account's email: `accept` makes it a member with the
 * role it was invited to, `decline` drops the invitation. `not_found` when there is none. The
 * link emailed with it stops working either way.
 */
export async function answerInvitation(
  db: Db,
  input: { account: { id: string; email: string }; teamId: string; accept: boolean },
): Promise<void> {
  await db.transaction(async (tx) => {
    const members = await lockMembers(tx, input.teamId);
    const role = await deleteInvitation(tx, input.teamId, input.account.email);
    if (!role) throw new AppError("not_found", `No invitation to team "${input.teamId}"`);
    await revokeEmailedLinks(tx, input.teamId, input.account.email);
    if (!input.accept || members.some((m) => m.account_id === input.account.id)) return;
    await upsertMembership(tx, input.teamId, input.account.id, role);
  });
}

/** Withdraws a pending invitation and the link emailed with it (owners and admins). */
export async function cancelInvitation(
  db: Db,
  input: { actorId: string; teamId: string; email: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    requireManager(await lockMembers(tx, input.teamId), input.actorId, input.teamId);
    await deleteInvitation(tx, input.teamId, input.email);
    await revokeEmailedLinks(tx, input.teamId, input.email);
  });
}

export type { InvitationRow };

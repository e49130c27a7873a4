import { manages, type Role } from "../access/role.ts";
import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import { WIKI_ID } from "../lib/urls.ts";
import {
  deleteMembership,
  insertTeam,
  lockMembers,
  type MemberRow,
  selectMembers,
  selectTeam,
  selectTeamsOf,
  type TeamRow,
  upsertMembership,
} from "./store.ts";
import { selectAccountByEmail } from "../accounts/mod.ts";
import { revokeTeamSpaceTokens } from "../auth/mod.ts";
import { removeTeamSpacesFromGrants } from "../oauth/mod.ts";

/** Creates a team with its creator as owner, in one transaction. */
export async function createTeam(
  db: Db,
  input: { id: string; name?: string; ownerAccountId: string },
): Promise<TeamRow> {
  if (!WIKI_ID.test(input.id)) {
    throw new AppError(
      "bad_request",
      `Team id "${input.id}" must be 1-64 characters of a-z, 0-9 and inner hyphens`,
    );
  }
  return await db.transaction(async (tx) => {
    const team = await insertTeam(tx, { id: input.id, name: input.name?.trim() || input.id });
    if (!team) throw new AppError("team_exists", `Team "${input.id}" already exists`);
    await upsertMembership(tx, team.id, input.ownerAccountId, "owner");
    return team;
  });
}

/**
 * Adds a member or changes a member's role (`null` removes them). A team always keeps at
 * least one owner: the change that would leave none is refused. A member removed loses the
 * team's spaces at once: access is computed from memberships on every request, and their
 * space tokens for those spaces are revoked and the spaces taken out of their OAuth grants,
 * so that joining again later does not quietly bring old credentials back.
 */
export async function setMemberRole(
  db: Db,
  teamId: string,
  accountId: string,
  role: Role | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const members = await lockMembers(tx, teamId);
    if (members.length === 0) throw new AppError("not_found", `Team "${teamId}" not found`);
    const owners = members.filter((m) => m.role === "owner").map((m) => m.account_id);
    if (owners.length === 1 && owners[0] === accountId && role !== "owner") {
      throw new AppError(
        "forbidden",
        `Team "${teamId}" needs another owner before its last owner steps down`,
      );
    }
    if (role === null) {
      await deleteMembership(tx, teamId, accountId);
      await revokeTeamSpaceTokens(tx, accountId, teamId);
      await removeTeamSpacesFromGrants(tx, accountId, teamId);
    } else await upsertMembership(tx, teamId, accountId, role);
  });
}

/** A team as one of its members sees it; `not_found` for anyone else (no hint it exists). */
export async function getTeamForMember(
  db: Db,
  teamId: string,
  accountId: string,
): Promise<{ team: TeamRow; members: MemberRow[]; role: Role }> {
  const team = await selectTeam(db, teamId);
  const members = team ? await selectMembers(db, teamId) : [];
  const me = members.find((m) => m.account_id === accountId);
  if (!team || !me) throw new AppError("not_found", `Team "${teamId}" not found`);
  return { team, members, role: me.role };
}

/**
 * Adds an existing account, found by email, to a team at once, without asking it: for
 * operators and tests only. People join through an invitation they accept
 * (`inviteToTeam`, src/teams/invitations.ts).
 */
export async function addTeamMember(
  db: Db,
  input: { actorId: string; teamId: string; email: string; role: Role },
): Promise<MemberRow> {
  return await db.transaction(async (tx) => {
    const members = await lockMembers(tx, input.teamId);
    const actor = requireManager(members, input.actorId, input.teamId);
    if (input.role === "owner" && actor.role !== "owner") {
      throw new AppError("forbidden", `Only an owner of team "${input.teamId}" can add an owner`);
    }
    const email = input.email.trim();
    const account = email ? await selectAccountByEmail(tx, email) : null;
    if (!account) throw new AppError("not_found", `No account has the email "${email}"`);
    if (members.some((m) => m.account_id === account.id)) {
      throw new AppError(
        "bad_request",
        `"${account.email}" is already a member of team "${input.teamId}"`,
      );
    }
    await upsertMembership(tx, input.teamId, account.id, input.role);
    return { account_id: account.id, email: account.email, name: account.name, role: input.role };
  });
}

/**
 * Changes a member's role. Owners may change anyone's; admins may change members' and
 * admins', never to or from owner. The last owner cannot step down (`setMemberRole`).
 */
export async function changeMemberRole(
  db: Db,
  input: { actorId: string; teamId: string; accountId: string; role: Role },
): Promise<void> {
  await db.transaction(async (tx) => {
    const { actor, target } = await lockManagerAndMember(tx, input);
    if (actor.role !== "owner" && (target.role === "owner" || input.role === "owner")) {
      throw new AppError(
        "forbidden",
        `Only an owner of team "${input.teamId}" can make or unmake owners`,
      );
    }
    await setMemberRole(tx, input.teamId, input.accountId, input.role);
  });
}

/**
 * Removes a member from a team. Owners may remove anyone; admins may remove members and
 * admins, never an owner. The last owner is never removed (`setMemberRole`).
 */
export async function removeTeamMember(
  db: Db,
  input: { actorId: string; teamId: string; accountId: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const { actor, target } = await lockManagerAndMember(tx, input);
    if (actor.role !== "owner" && target.role === "owner") {
      throw new AppError(
        "forbidden",
        `Only an owner of team "${input.teamId}" can remove an owner`,
      );
    }
    await setMemberRole(tx, input.teamId, input.accountId, null);
  });
}

/** Leaves a team; its last owner cannot (`forbidden`) until another member is made owner. */
export async function leaveTeam(db: Db, accountId: string, teamId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const members = await lockMembers(tx, teamId);
    if (!members.some((m) => m.account_id === accountId)) {
      throw new AppError("not_found", `Team "${teamId}" not found`);
    }
    await setMemberRole(tx, teamId, accountId, null);
  });
}

/** The acting member when they may manage the team (owner or admin); else an error. */
export function requireManager(members: MemberRow[], actorId: string, teamId: string): MemberRow {
  const actor = members.find((m) => m.account_id === actorId);
  if (!actor) throw new AppError("not_found", `Team "${teamId}" not found`);
  if (!manages(actor.role)) {
    throw new AppError(
      "forbidden",
      `Only owners and admins of team "${teamId}" can manage members`,
    );
  }
  return actor;
}

/** Whether a team role may put spaces in the team (create one there, or move one in). */
export function canOwnSpaces(role: Role): boolean {
  return manages(role);
}

/** The teams an account may put spaces in: those it owns or administers. */
export async function teamsThatCanOwnSpaces(
  db: Db,
  accountId: string,
): Promise<(TeamRow & { role: Role })[]> {
  return (await selectTeamsOf(db, accountId)).filter((t) => canOwnSpaces(t.role));
}

export type { TeamRow };

/**
 * Locks a team's memberships (in `tx`), then checks that the actor manages the team and that
 * the account is a member: the first step of changing or removing a member.
 */
async function lockManagerAndMember(
  tx: Db,
  input: { actorId: string; teamId: string; accountId: string },
): Promise<{ actor: MemberRow; target: MemberRow }> {
  const members = await lockMembers(tx, input.teamId);
  const actor = requireManager(members, input.actorId, input.teamId);
  const target = members.find((m) => m.account_id === input.accountId);
  if (!target) {
    throw new AppError(
      "not_found",
      `Account "${input.accountId}" is not a member of team "${input.teamId}"`,
    );
  }
  return { actor, target };
}

import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import { WIKI_ID } from "../wikis/wikis.ts";
import {
  deleteMembership,
  insertTeam,
  lockMembers,
  type Role,
  type TeamRow,
  upsertMembership,
} from "./store.ts";

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
 * least one owner: the change that would leave none is refused.
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
    if (role === null) await deleteMembership(tx, teamId, accountId);
    else await upsertMembership(tx, teamId, accountId, role);
  });
}

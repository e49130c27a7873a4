import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import { teamsThatCanOwnSpaces } from "../teams/teams.ts";
import type { WikiRow } from "../db/wiki_row.ts";
import { updateWikiOwnerToTeam } from "../wikis/mod.ts";

/**
 * Moves a personal space to a team, for its owner alone, to a team they own or administer
 * (as for creating a team space, `createSpace`). Access follows ownership on every request
 * (`src/access/`): the team's members reach the space at once, with their team role, and the
 * mover keeps it through their own team role. Credentials are left as they are: the mover's
 * space tokens and OAuth grants for it go on working while their account reaches it, and are
 * revoked with the team's other spaces if they leave the team (`setMemberRole`). There is no
 * way back to personal: a team's space may hold its members' pages.
 */
export async function moveSpaceToTeam(
  db: Db,
  input: { actorId: string; wiki: WikiRow; teamId: string },
): Promise<WikiRow> {
  const { wiki, teamId } = input;
  if (wiki.owner_account_id !== input.actorId) {
    throw new AppError(
      "forbidden",
      `Only the owner of the personal space "${wiki.id}" can move it to a team`,
    );
  }
  return await db.transaction(async (tx) => {
    const team = (await teamsThatCanOwnSpaces(tx, input.actorId)).find((t) => t.id === teamId);
    if (!team) {
      throw new AppError(
        "bad_request",
        `Choose a team you own or administer, not "${teamId}"`,
      );
    }
    const moved = await updateWikiOwnerToTeam(tx, wiki.id, input.actorId, team.id);
    if (!moved) {
      throw new AppError(
        "forbidden",
        `Only the owner of the personal space "${wiki.id}" can move it to a team`,
      );
    }
    return moved;
  });
}

import { z } from "zod";
import type { Role } from "../access/role.ts";
import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import { deleteShare, selectPeopleOf, selectShares, type ShareRow, upsertShare } from "./store.ts";

const emailSchema = z.email().max(254);
const shareRoleSchema = z.enum(["viewer", "member"]);

/** One line of "who can do what" on a space. */
export type Person = {
  email: string;
  name: string | null;
  role: Role;
  /** How they reach it: they own it, through its team, or a share of this space. */
  through: "owner" | "team" | "share";
};

/**
 * Shares a space with one person by email, as a viewer (reads, searches, asks) or a member
 * (also writes). The share reaches whichever account has that email, now or once it signs up,
 * so the answer is the same whether an account exists: sharing reveals nobody. The caller
 * has already checked that the actor administers the space.
 */
export async function shareSpace(
  db: Db,
  input: { wikiId: string; email: string; role: string; actorId: string },
): Promise<ShareRow["role"]> {
  const email = input.email.trim();
  if (!emailSchema.safeParse(email).success) {
    throw new AppError("bad_request", `"${email}" is not an email address`);
  }
  const role = shareRoleSchema.safeParse(input.role);
  if (!role.success) throw new AppError("bad_request", "Share as a viewer or a member");
  await upsertShare(db, { wikiId: input.wikiId, email, role: role.data, sharedBy: input.actorId });
  return role.data;
}

/** Ends a share at once; `not_found` when the space was not shared with that email. */
export async function unshareSpace(db: Db, wikiId: string, email: string): Promise<void> {
  if (!await deleteShare(db, wikiId, email)) {
    throw new AppError("not_found", `Space "${wikiId}" is not shared with "${email}"`);
  }
}

/** Everyone who reaches the space and how, for its owners' People page. */
export async function peopleOf(db: Db, wikiId: string): Promise<Person[]> {
  const [people, shares] = await Promise.all([
    selectPeopleOf(db, wikiId),
    selectShares(db, wikiId),
  ]);
  return [
    ...people,
    ...shares.map((s) => ({ email: s.email, name: null, role: s.role, through: "share" as const })),
  ];
}

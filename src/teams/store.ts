import type { Db } from "../db/db.ts";

/** A role in a team, strongest first. */
export type Role = "owner" | "admin" | "member";

/** A team as stored. */
export type TeamRow = { id: string; name: string; created_at: Date };

/** A team member with their role. */
export type MemberRow = { account_id: string; email: string; name: string; role: Role };

/** Inserts a team; null when the id is taken. */
export async function insertTeam(
  db: Db,
  team: { id: string; name: string },
): Promise<TeamRow | null> {
  const rows = await db<TeamRow>`
    INSERT INTO teams (id, name) VALUES (${team.id}, ${team.name})
    ON CONFLICT (id) DO NOTHING
    RETURNING *`;
  return rows[0] ?? null;
}

/** Sets an account's role in a team, adding the membership if needed. */
export async function upsertMembership(
  db: Db,
  teamId: string,
  accountId: string,
  role: Role,
): Promise<void> {
  await db`
    INSERT INTO memberships (team_id, account_id, role) VALUES (${teamId}, ${accountId}, ${role})
    ON CONFLICT (team_id, account_id) DO UPDATE SET role = excluded.role`;
}

/** Removes a membership; returns whether there was one. */
export async function deleteMembership(
  db: Db,
  teamId: string,
  accountId: string,
): Promise<boolean> {
  const rows = await db`
    DELETE FROM memberships WHERE team_id = ${teamId} AND account_id = ${accountId} RETURNING 1`;
  return rows.length > 0;
}

/** The team's members, locked for the rest of the transaction (role changes check owners). */
export function lockMembers(tx: Db, teamId: string): Promise<MemberRow[]> {
  return tx<MemberRow>`
    SELECT m.account_id, a.email, a.name, m.role
    FROM memberships m JOIN accounts a ON a.id = m.account_id
    WHERE m.team_id = ${teamId}
    ORDER BY a.email
    FOR UPDATE OF m`;
}

/** The teams an account belongs to, with its role in each. */
export function selectTeamsOf(db: Db, accountId: string): Promise<(TeamRow & { role: Role })[]> {
  return db`
    SELECT t.*, m.role FROM teams t JOIN memberships m ON m.team_id = t.id
    WHERE m.account_id = ${accountId}
    ORDER BY t.id`;
}

/** The team with this id, or null. */
export async function selectTeam(db: Db, id: string): Promise<TeamRow | null> {
  const rows = await db<TeamRow>`SELECT id, name, created_at FROM teams WHERE id = ${id}`;
  return rows[0] ?? null;
}

/** The team's members with their roles, by email. */
export function selectMembers(db: Db, teamId: string): Promise<MemberRow[]> {
  return db<MemberRow>`
    SELECT m.account_id, a.email, a.name, m.role
    FROM memberships m JOIN accounts a ON a.id = m.account_id
    WHERE m.team_id = ${teamId}
    ORDER BY a.email`;
}

import type { Db } from "../db/db.ts";
import type { Role } from "../access/role.ts";

/** A role in a team, strongest first. */

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

/** A pending invitation to a team, as its managers and its invitee see it. */
export type InvitationRow = {
  team_id: string;
  team_name: string;
  email: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
};

/** Invites an email (again: the role and the 30 days start over). */
export async function upsertInvitation(
  db: Db,
  invitation: { teamId: string; email: string; role: Role; invitedBy: string },
): Promise<void> {
  await db`
    INSERT INTO team_invitations (team_id, email, role, invited_by)
    VALUES (${invitation.teamId}, ${invitation.email}, ${invitation.role}, ${invitation.invitedBy})
    ON CONFLICT (team_id, lower(email)) DO UPDATE SET
      role = excluded.role, invited_by = excluded.invited_by, created_at = now(),
      expires_at = now() + interval '30 days'`;
}

/** A team's pending invitations, by email. */
export function selectTeamInvitations(db: Db, teamId: string): Promise<InvitationRow[]> {
  return db<InvitationRow>`
    SELECT i.team_id, t.name AS team_name, i.email, i.role, i.created_at, i.expires_at
    FROM team_invitations i JOIN teams t ON t.id = i.team_id
    WHERE i.team_id = ${teamId} AND i.expires_at > now()
    ORDER BY lower(i.email)`;
}

/** The pending invitations addressed to an email, by team. */
export function selectInvitationsFor(db: Db, email: string): Promise<InvitationRow[]> {
  return db<InvitationRow>`
    SELECT i.team_id, t.name AS team_name, i.email, i.role, i.created_at, i.expires_at
    FROM team_invitations i JOIN teams t ON t.id = i.team_id
    WHERE lower(i.email) = lower(${email}) AND i.expires_at > now()
    ORDER BY i.team_id`;
}

/** Deletes the invitation of an email to a team; its role when it was pending, else null. */
export async function deleteInvitation(
  db: Db,
  teamId: string,
  email: string,
): Promise<Role | null> {
  const rows = await db<{ role: Role; live: boolean }>`
    DELETE FROM team_invitations WHERE team_id = ${teamId} AND lower(email) = lower(${email})
    RETURNING role, expires_at > now() AS live`;
  return rows[0]?.live ? rows[0].role : null;
}

/** The spaces a team owns, by title. */
export function selectTeamSpaces(
  db: Db,
  teamId: string,
): Promise<{ id: string; title: string; visibility: "public" | "private" }[]> {
  return db<{ id: string; title: string; visibility: "public" | "private" }>`
    SELECT id, title, visibility FROM wikis WHERE owner_team_id = ${teamId} ORDER BY title, id`;
}

/** An invitation link of a team, as its managers see it (never its secret). */
export type InviteLinkRow = {
  id: string;
  team_id: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  uses: number;
  /** The address an emailed link was sent to (it works once); null for a shared link. */
  email: string | null;
};

/** Stores a new invitation link (the SHA-256 of its secret). */
export async function insertInviteLink(
  db: Db,
  link: {
    id: string;
    teamId: string;
    role: Role;
    secretHash: string;
    createdBy: string;
    email: string | null;
  },
  expiresAt: Date,
): Promise<InviteLinkRow> {
  const rows = await db<InviteLinkRow>`
    INSERT INTO team_invite_links (id, team_id, role, secret_hash, created_by, expires_at, email)
    VALUES (${link.id}, ${link.teamId}, ${link.role}, ${link.secretHash}, ${link.createdBy},
      ${expiresAt}, ${link.email})
    RETURNING id, team_id, role, created_at, expires_at, revoked_at, uses, email`;
  return rows[0]!;
}

/** The team's links that still work, newest first. */
export function selectLiveInviteLinks(db: Db, teamId: string): Promise<InviteLinkRow[]> {
  return db`
    SELECT id, team_id, role, created_at, expires_at, revoked_at, uses, email
    FROM team_invite_links
    WHERE team_id = ${teamId} AND revoked_at IS NULL AND expires_at > now()
      AND (email IS NULL OR uses = 0)
    ORDER BY created_at DESC`;
}

/** The link with this secret's hash, with its team's name, whatever its state. */
export async function selectInviteLinkByHash(
  db: Db,
  secretHash: string,
): Promise<(InviteLinkRow & { team_name: string }) | null> {
  const rows = await db<InviteLinkRow & { team_name: string }>`
    SELECT l.id, l.team_id, l.role, l.created_at, l.expires_at, l.revoked_at, l.uses, l.email,
      t.name AS team_name
    FROM team_invite_links l JOIN teams t ON t.id = l.team_id
    WHERE l.secret_hash = ${secretHash}`;
  return rows[0] ?? null;
}

/** Revokes a link of the team; returns whether one was live. */
export async function revokeInviteLinkRow(db: Db, teamId: string, id: string): Promise<boolean> {
  const rows = await db`
    UPDATE team_invite_links SET revoked_at = now()
    WHERE team_id = ${teamId} AND id = ${id} AND revoked_at IS NULL RETURNING 1`;
  return rows.length > 0;
}

/** Counts one more person who joined through the link; false when an emailed one is used up. */
export async function countInviteLinkUse(db: Db, id: string): Promise<boolean> {
  const rows = await db`
    UPDATE team_invite_links SET uses = uses + 1
    WHERE id = ${id} AND (email IS NULL OR uses = 0) RETURNING 1`;
  return rows.length > 0;
}

/** Revokes the live links emailed to an address (its invitation was withdrawn or answered). */
export async function revokeEmailedLinks(db: Db, teamId: string, email: string): Promise<void> {
  await db`
    UPDATE team_invite_links SET revoked_at = now()
    WHERE team_id = ${teamId} AND lower(email) = lower(${email}) AND revoked_at IS NULL`;
}

/** How many invitation emails an account has had sent since `since`. */
export async function countEmailedLinksSince(
  db: Db,
  accountId: string,
  since: Date,
): Promise<number> {
  const rows = await db<{ n: number }>`
    SELECT count(*)::int AS n FROM team_invite_links
    WHERE created_by = ${accountId} AND email IS NOT NULL AND created_at > ${since}`;
  return rows[0]?.n ?? 0;
}

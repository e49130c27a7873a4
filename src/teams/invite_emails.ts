import type { Role } from "../access/role.ts";
import type { Config } from "../config/config.ts";
import type { Db } from "../db/db.ts";
import type { Log } from "../lib/log.ts";
import type { Mailer } from "../lib/mailer.ts";
import { ROLE_WORDS } from "./invite_link_pages.tsx";
import { createInviteLink } from "./invite_links.ts";
import { countEmailedLinksSince } from "./store.ts";

/** What became of the email of an invitation (the invitation itself is stored either way). */
export type InviteEmailOutcome =
  | { sent: true }
  /** Over the sender's hourly budget: no link was made, no email went out. */
  | { sent: false; reason: "limit"; perHour: number }
  /** The SMTP server refused or could not be reached: the link works, to be passed on by hand. */
  | { sent: false; reason: "failed"; url: string };

/**
 * Emails an invitation to a team: a link that works once for that person (it signs them up or
 * in, and joins them with `role`), so they need not sign up with the invited address. A send
 * that fails leaves the link working and hands it back, for the inviter to pass on.
 */
export async function emailInvitation(
  deps: { db: Db; log: Log; config: Pick<Config, "baseUrl">; mailer: Mailer; perHour: number },
  input: {
    actor: { id: string; name: string; email: string };
    team: { id: string; name: string };
    email: string;
    role: Role;
  },
): Promise<InviteEmailOutcome> {
  const since = new Date(Date.now() - 3_600_000);
  if (await countEmailedLinksSince(deps.db, input.actor.id, since) >= deps.perHour) {
    return { sent: false, reason: "limit", perHour: deps.perHour };
  }
  const { url, link } = await createInviteLink(deps.db, {
    actorId: input.actor.id,
    teamId: input.team.id,
    role: input.role,
    baseUrl: deps.config.baseUrl,
    email: input.email,
  });
  try {
    await deps.mailer.send({
      to: input.email,
      subject: `${input.actor.name || input.actor.email} invites you to ${input.team.name}`,
      text: invitationText({ ...input, url, expires: link.expires_at }),
    });
    return { sent: true };
  } catch (error) {
    deps.log.warn("invitation email not sent", {
      team: input.team.id,
      error: error instanceof Error ? error.message : String(error),
    });
    return { sent: false, reason: "failed", url };
  }
}

/** The email's words: who invites, to what, as what, and the one link. */
function invitationText(input: {
  actor: { name: string; email: string };
  team: { name: string };
  role: Role;
  url: string;
  expires: Date;
}): string {
  const who = input.actor.name ? `${input.actor.name} (${input.actor.email})` : input.actor.email;
  return [
    `${who} invites you to the team "${input.team.name}" as ${input.role}: ` +
    `a ${input.role} ${ROLE_WORDS[input.role]}.`,
    "",
    "Open this link to sign up (or sign in) and join:",
    "",
    input.url,
    "",
    `The link works once, until ${input.expires.toISOString().slice(0, 10)}. ` +
    "Nothing happens unless it is opened; if you did not expect this email, ignore it.",
    "",
  ].join("\n");
}

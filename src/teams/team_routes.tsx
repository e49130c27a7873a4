import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import { manages } from "../access/role.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { requireAccount } from "../kit/web/require_account.ts";
import { answerInvitation, cancelInvitation, inviteToTeam } from "./invitations.ts";
import {
  changeMemberRole,
  createTeam,
  getTeamForMember,
  leaveTeam,
  removeTeamMember,
} from "./teams.ts";
import { CreateTeamPage, TeamPage } from "./team_pages.tsx";
import { liveInviteLinks } from "./invite_links.ts";
import { selectTeamInvitations, selectTeamSpaces } from "./mod.ts";
import { emailInvitation } from "./invite_emails.ts";
import { createMailer, type Mailer } from "../lib/mailer.ts";

type TeamDeps = Pick<Deps, "db" | "config" | "log">;

const roleSchema = z.enum(["owner", "admin", "member", "viewer"]);

/**
 * The team pages of the web app. Mount behind `sessionMiddleware` and `csrfProtection`
 * (`sessionRoutes` does): they read `account` and `csrfToken` from the context.
 */
export function teamRoutes(deps: TeamDeps): Hono {
  const app = new Hono();
  const mailer = deps.config.mail ? createMailer(deps.config.mail) : null;

  teamPageRoutes(app, deps);
  invitationRoutes(app, deps, mailer);
  memberRoutes(app, deps);

  return app;
}

/** A team's page, and creating a team. */
function teamPageRoutes(app: Hono, deps: TeamDeps): void {
  app.get("/teams/:id", async (c) => {
    const account = requireAccount(c);
    const view = await teamView(deps, c.req.param("id"), account.id);
    const notice = noticeOf(c.req.query());
    return c.html(
      <TeamPage account={account} csrfToken={c.get("csrfToken")} notice={notice} {...view} />,
    );
  });

  app.post("/teams", async (c) => {
    const account = requireAccount(c);
    const form = await c.req.parseBody();
    const values = { id: text(form.id).trim().toLowerCase(), name: text(form.name) };
    try {
      const team = await createTeam(deps.db, { ...values, ownerAccountId: account.id });
      return c.redirect(`/teams/${team.id}`, 303);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return c.html(
        <CreateTeamPage
          account={account}
          csrfToken={c.get("csrfToken")}
          error={error.detail}
          values={values}
        />,
        error.status as ContentfulStatusCode,
      );
    }
  });
}

/** Inviting to a team, and answering or cancelling an invitation. */
function invitationRoutes(app: Hono, deps: TeamDeps, mailer: Mailer | null): void {
  app.post("/teams/:id/members", (c) => inviteByEmail(c, deps, mailer));

  app.post("/teams/:id/invitations/cancel", async (c) => {
    const account = requireAccount(c);
    const teamId = c.req.param("id");
    const form = await c.req.parseBody();
    try {
      await cancelInvitation(deps.db, { actorId: account.id, teamId, email: text(form.email) });
    } catch (error) {
      return await teamPageWithError(c, deps, teamId, error);
    }
    return c.redirect(`/teams/${teamId}`, 303);
  });

  for (const answer of ["accept", "decline"] as const) {
    app.post(`/teams/:id/invitation/${answer}`, async (c) => {
      const account = requireAccount(c);
      const teamId = c.req.param("id");
      await answerInvitation(deps.db, { account, teamId, accept: answer === "accept" });
      return c.redirect(answer === "accept" ? `/teams/${teamId}` : "/account", 303);
    });
  }
}

/**
 * `POST /teams/:id/members`: stores the invitation and, when SMTP is configured, emails it
 * with a link of its own. The answer is the same whether or not the email has an account (see
 * inviteToTeam); a failed send shows the link, which works all the same, to pass on by hand.
 */
async function inviteByEmail(c: Context, deps: TeamDeps, mailer: Mailer | null) {
  const account = requireAccount(c);
  const teamId = c.req.param("id")!;
  const form = await c.req.parseBody();
  const email = text(form.email).trim();
  try {
    const role = parseRole(form.role);
    const stored = await inviteToTeam(deps.db, { actorId: account.id, teamId, email, role });
    if (!stored || !mailer) return c.redirect(`/teams/${teamId}?invited=1`, 303);
    const { team } = await getTeamForMember(deps.db, teamId, account.id);
    const outcome = await emailInvitation(
      { ...deps, mailer, perHour: deps.config.mail!.invitesPerHour },
      { actor: account, team, email, role },
    );
    if (outcome.sent) return c.redirect(`/teams/${teamId}?emailed=1`, 303);
    const view = await teamView(deps, teamId, account.id);
    const error = outcome.reason === "limit"
      ? `Invitation saved but not emailed: you have sent ${outcome.perHour} invitation emails in the last hour. ${email} sees it on their account page after signing up with that email, or send them an invitation link.`
      : `Invitation saved, but the email to ${email} could not be sent. Send them this link yourself: it works once, for 7 days.`;
    return c.html(
      <TeamPage
        account={account}
        csrfToken={c.get("csrfToken")}
        {...view}
        error={error}
        unsentLink={outcome.reason === "failed" ? outcome.url : undefined}
      />,
    );
  } catch (error) {
    return await teamPageWithError(c, deps, teamId, error, email);
  }
}

/** Removing a member, changing a role, leaving a team. */
function memberRoutes(app: Hono, deps: TeamDeps): void {
  app.post("/teams/:id/members/:accountId/remove", async (c) => {
    const account = requireAccount(c);
    const teamId = c.req.param("id");
    const form = await c.req.parseBody();
    try {
      if (form.confirm !== "yes") {
        throw new AppError("bad_request", "Tick the box to confirm the removal");
      }
      await removeTeamMember(deps.db, {
        actorId: account.id,
        teamId,
        accountId: c.req.param("accountId"),
      });
    } catch (error) {
      return await teamPageWithError(c, deps, teamId, error);
    }
    return c.redirect(`/teams/${teamId}?removed`, 303);
  });

  app.post("/teams/:id/members/:accountId/role", async (c) => {
    const account = requireAccount(c);
    const teamId = c.req.param("id");
    const form = await c.req.parseBody();
    try {
      await changeMemberRole(deps.db, {
        actorId: account.id,
        teamId,
        accountId: c.req.param("accountId"),
        role: parseRole(form.role),
      });
    } catch (error) {
      return await teamPageWithError(c, deps, teamId, error);
    }
    return c.redirect(`/teams/${teamId}?role_changed`, 303);
  });

  app.post("/teams/:id/leave", async (c) => {
    const account = requireAccount(c);
    const teamId = c.req.param("id");
    const form = await c.req.parseBody();
    try {
      if (form.confirm !== "yes") {
        throw new AppError("bad_request", "Tick the box to confirm that you leave the team");
      }
      await leaveTeam(deps.db, account.id, teamId);
    } catch (error) {
      return await teamPageWithError(c, deps, teamId, error);
    }
    return c.redirect("/account", 303);
  });
}

/**
 * The team page again with the reason an action was refused, at the error's status. Errors
 * that are not the member's to correct (not a member, unexpected) go to the error page.
 */
async function teamPageWithError(
  c: Context,
  deps: TeamDeps,
  teamId: string,
  error: unknown,
  inviteEmail?: string,
): Promise<Response> {
  if (!(error instanceof AppError)) throw error;
  const account = requireAccount(c);
  const view = await teamView(deps, teamId, account.id).catch(() => null);
  if (!view) throw error;
  return c.html(
    <TeamPage
      account={account}
      csrfToken={c.get("csrfToken")}
      {...view}
      error={error.detail}
      inviteEmail={inviteEmail}
    />,
    error.status as ContentfulStatusCode,
  );
}

/** What the team page shows a member: the team, its members and, to managers, invitations. */
async function teamView(deps: TeamDeps, teamId: string, accountId: string) {
  const view = await getTeamForMember(deps.db, teamId, accountId);
  const [invitations, links, spaces] = await Promise.all([
    !manages(view.role) ? [] : selectTeamInvitations(deps.db, teamId),
    !manages(view.role) ? [] : liveInviteLinks(deps.db, accountId, teamId),
    selectTeamSpaces(deps.db, teamId),
  ]);
  return { ...view, invitations, links, spaces, emails: deps.config.mail !== null };
}

/** What the team page says after an action, from the query its redirect carried. */
function noticeOf(query: Record<string, string>): string | undefined {
  if ("emailed" in query) {
    return "Invitation emailed, with a link that signs them up and joins them to the team. It also waits on their account page if they already have one.";
  }
  if ("invited" in query) {
    return "Invitation sent. Whoever has or makes an account with that email sees it on their account page, and joins when they accept it.";
  }
  if ("link_revoked" in query) return "Link revoked: nobody can join through it any more.";
  if ("joined" in query) return "You joined the team.";
  if ("removed" in query) {
    return "Member removed: they no longer reach the team's spaces, and their space tokens for them are revoked.";
  }
  if ("role_changed" in query) return "Role changed: it applies to their next request.";
  if ("member" in query) return "You are already a member of this team.";
  return undefined;
}

function parseRole(value: unknown) {
  const role = roleSchema.safeParse(value);
  if (!role.success) {
    throw new AppError("bad_request", "Choose a role: owner, admin, member or viewer");
  }
  return role.data;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

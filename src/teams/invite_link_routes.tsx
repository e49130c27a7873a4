import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { requireAccount } from "../kit/web/require_account.ts";
import { InviteLinkCreatedPage, InvitePage } from "./invite_link_pages.tsx";
import {
  createInviteLink,
  inviteLinkRefusal,
  joinByInviteLink,
  readInviteLink,
  revokeInviteLink,
} from "./invite_links.ts";
import { getTeamForMember } from "./teams.ts";
import type { Role } from "../access/role.ts";

/**
 * Invitation links: owners and admins make and revoke them on the team page; whoever opens
 * one (`/invite/<secret>`) signs up or signs in and joins. Mount behind the session and CSRF
 * middleware, as the team pages are.
 */
export function inviteLinkRoutes(deps: Pick<Deps, "db" | "config">): Hono {
  const app = new Hono();

  app.post("/teams/:id/links", async (c) => {
    const account = requireAccount(c);
    const form = await c.req.parseBody();
    const teamId = c.req.param("id");
    const { url, link } = await createInviteLink(deps.db, {
      actorId: account.id,
      teamId,
      role: String(form.role ?? "member") as Role,
      baseUrl: deps.config.baseUrl,
    });
    const { team } = await getTeamForMember(deps.db, teamId, account.id);
    return c.html(
      <InviteLinkCreatedPage
        {...pageContext(c)}
        teamId={teamId}
        teamName={team.name}
        url={url}
        link={link}
      />,
      201,
    );
  });

  app.post("/teams/:id/links/:link/revoke", async (c) => {
    const account = requireAccount(c);
    const teamId = c.req.param("id");
    await revokeInviteLink(deps.db, { actorId: account.id, teamId, id: c.req.param("link") });
    return c.redirect(`/teams/${encodeURIComponent(teamId)}?link_revoked`, 303);
  });

  app.get("/invite/:secret", async (c) => {
    const secret = c.req.param("secret");
    const state = await readInviteLink(deps.db, secret);
    const context = pageContext(c);
    if (!state.ok) {
      return c.html(
        <InvitePage {...context} secret={secret} refusal={inviteLinkRefusal(state.reason)} />,
        state.reason === "unknown" ? 404 : 410,
      );
    }
    const member = context.account
      ? await getTeamForMember(deps.db, state.link.team_id, context.account.id).then(
        () => true,
        (error) => {
          if (error instanceof AppError && error.status === 404) return false;
          throw error;
        },
      )
      : false;
    return c.html(
      <InvitePage
        {...context}
        secret={secret}
        teamName={state.link.team_name}
        role={state.link.role}
        member={member}
      />,
    );
  });

  app.post("/invite/:secret", async (c) => {
    const account = requireAccount(c);
    const { teamId, joined } = await joinByInviteLink(deps.db, {
      accountId: account.id,
      secret: c.req.param("secret"),
    });
    return c.redirect(`/teams/${encodeURIComponent(teamId)}?${joined ? "joined" : "member"}`, 303);
  });

  return app;
}

function pageContext(c: Context) {
  return { account: c.get("account") ?? null, csrfToken: c.get("csrfToken") };
}

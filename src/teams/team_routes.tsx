import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { requireAccount } from "../sessions/sessions.ts";
import {
  addTeamMember,
  changeMemberRole,
  createTeam,
  getTeamForMember,
  leaveTeam,
} from "./teams.ts";
import { CreateTeamPage, TeamPage } from "./team_pages.tsx";

const roleSchema = z.enum(["owner", "admin", "member"]);

/**
 * The team pages of the web app. Mount behind `sessionMiddleware` and `csrfProtection`
 * (`sessionRoutes` does): they read `account` and `csrfToken` from the context.
 */
export function teamRoutes(deps: Pick<Deps, "db">): Hono {
  const app = new Hono();

  app.get("/teams/:id", async (c) => {
    const account = requireAccount(c);
    const view = await getTeamForMember(deps.db, c.req.param("id"), account.id);
    return c.html(<TeamPage account={account} csrfToken={c.get("csrfToken")} {...view} />);
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

  app.post("/teams/:id/members", async (c) => {
    const account = requireAccount(c);
    const teamId = c.req.param("id");
    const form = await c.req.parseBody();
    const email = text(form.email);
    try {
      await addTeamMember(deps.db, {
        actorId: account.id,
        teamId,
        email,
        role: parseRole(form.role),
      });
    } catch (error) {
      return await teamPageWithError(c, deps, teamId, error, email);
    }
    return c.redirect(`/teams/${teamId}`, 303);
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
    return c.redirect(`/teams/${teamId}`, 303);
  });

  app.post("/teams/:id/leave", async (c) => {
    const account = requireAccount(c);
    const teamId = c.req.param("id");
    try {
      await leaveTeam(deps.db, account.id, teamId);
    } catch (error) {
      return await teamPageWithError(c, deps, teamId, error);
    }
    return c.redirect("/account", 303);
  });

  return app;
}

/**
 * The team page again with the reason an action was refused, at the error's status. Errors
 * that are not the member's to correct (not a member, unexpected) go to the error page.
 */
async function teamPageWithError(
  c: Context,
  deps: Pick<Deps, "db">,
  teamId: string,
  error: unknown,
  inviteEmail?: string,
): Promise<Response> {
  if (!(error instanceof AppError)) throw error;
  const account = requireAccount(c);
  const view = await getTeamForMember(deps.db, teamId, account.id).catch(() => null);
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

function parseRole(value: unknown) {
  const role = roleSchema.safeParse(value);
  if (!role.success) throw new AppError("bad_request", "Choose a role: owner, admin or member");
  return role.data;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

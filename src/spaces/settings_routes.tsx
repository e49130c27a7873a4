import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import type {} from "../http/request_id.ts";
import type { WikiRow } from "../db/wiki_row.ts";
import { SettingsPage } from "./settings_page.tsx";
import type { SpaceView } from "../kit/web/wiki_frame.tsx";
import { syncStatusOf } from "../sync/connect_source.ts";
import { moveSpaceToTeam } from "./move_to_team.ts";
import { teamsThatCanOwnSpaces } from "../teams/teams.ts";
import { formText, openSpace } from "../kit/web/space_context.ts";
import { toolHref } from "../kit/web/space_urls.ts";
import { changeWikiSettings, deleteWikiConfirmed, type WikiSettingsForm } from "./wiki_settings.ts";
import { selectGitSource } from "../sync/mod.ts";

/** A wiki's settings (owners and admins), moving a personal one to a team and deleting it (owners). */
export function settingsRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get("/w/:id/-/settings", async (c) => {
    const view = await openSpace(deps, c, "admin");
    const source = await selectGitSource(deps.db, view.space.wiki.id);
    return c.html(
      <SettingsPage
        {...view}
        sync={source ? syncStatusOf(deps.config.baseUrl, source) : null}
        values={valuesOf(view.space.wiki)}
        saved={c.req.query("saved") === "1"}
        moved={c.req.query("moved") === "1"}
        teams={await movableTo(deps, view)}
      />,
    );
  });

  app.post("/w/:id/-/settings", async (c) => {
    const view = await openSpace(deps, c, "admin");
    const form = await c.req.parseBody();
    const values: WikiSettingsForm = {
      title: formText(form.title),
      description: formText(form.description),
      visibility: formText(form.visibility),
      instructions: formText(form.instructions).replace(/\r\n?/g, "\n"),
    };
    const result = await changeWikiSettings(deps.db, view.space.wiki.id, values);
    if (!result.ok) {
      return c.html(<SettingsPage {...view} values={values} errors={result.errors} />, 400);
    }
    logChange(c, deps, "wiki settings changed", result.wiki.id);
    return c.redirect(toolHref(result.wiki.id, "settings", { saved: 1 }), 303);
  });

  app.post("/w/:id/-/settings/team", (c) => moveToTeam(deps, c));

  app.post("/w/:id/-/settings/delete", async (c) => {
    const view = await openSpace(deps, c, "admin");
    const { wiki, role } = view.space;
    if (role !== "owner") {
      throw new AppError("forbidden", `Only owners of "${wiki.id}" can delete it`);
    }
    const form = await c.req.parseBody();
    const result = await deleteWikiConfirmed(deps.db, wiki.id, formText(form.confirm));
    if (!result.ok) {
      return c.html(
        <SettingsPage {...view} values={valuesOf(wiki)} deleteError={result.error} />,
        400,
      );
    }
    logChange(c, deps, "wiki deleted", wiki.id);
    return c.redirect("/account", 303);
  });

  return app;
}

/** The teams the visitor may move this wiki to: only the owner of a personal wiki has any. */
async function movableTo(deps: Deps, view: SpaceView) {
  const { account, space } = view;
  if (!account || space.wiki.owner_account_id !== account.id) return [];
  return await teamsThatCanOwnSpaces(deps.db, account.id);
}

function valuesOf(wiki: WikiRow): WikiSettingsForm {
  return {
    title: wiki.title,
    description: wiki.description,
    visibility: wiki.visibility,
    instructions: wiki.instructions ?? "",
  };
}

function logChange(c: Context, deps: Deps, message: string, wikiId: string): void {
  deps.log.info(message, {
    request_id: c.get("requestId"),
    wiki: wikiId,
    account_id: c.get("account")?.id,
  });
}

/** Moves a personal wiki to one of its owner's teams, once the move is confirmed. */
async function moveToTeam(deps: Deps, c: Context) {
  const view = await openSpace(deps, c, "admin");
  const form = await c.req.parseBody();
  try {
    if (form.confirm !== "yes") {
      throw new AppError(
        "bad_request",
        "Tick the box to confirm the move: a team's space cannot be made personal again",
      );
    }
    await moveSpaceToTeam(deps.db, {
      actorId: view.account!.id,
      wiki: view.space.wiki,
      teamId: formText(form.team),
    });
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    return c.html(
      <SettingsPage
        {...view}
        values={valuesOf(view.space.wiki)}
        teams={await movableTo(deps, view)}
        moveError={error.detail}
      />,
      error.status as 400 | 403,
    );
  }
  logChange(c, deps, "wiki moved to a team", view.space.wiki.id);
  return c.redirect(toolHref(view.space.wiki.id, "settings", { moved: 1 }), 303);
}

import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { formText, openSpace } from "../kit/web/space_context.ts";
import { toolHref } from "../kit/web/space_urls.ts";
import type { SpaceView } from "../kit/web/wiki_frame.tsx";
import { DeleteVersionPage, RenameVersionPage, VersionsPage } from "./version_manage_page.tsx";
import {
  defaultVersionRefusal,
  deleteVersion,
  LATEST,
  listVersions,
  publishVersion,
  renameVersion,
  setDefaultVersion,
} from "./versions.ts";

/** What the versions page says after each change (`?done=…&name=…&to=…`). */
function noticeOf(query: Record<string, string>): string | undefined {
  const { name, to } = query;
  switch (query.done) {
    case "published":
      return `Published version "${name}" (${query.pages} pages) from the live pages as they are now.`;
    case "renamed":
      return `Renamed version "${name}" to "${to}".`;
    case "deleted":
      return `Deleted version "${name}". Its pages stay, live and in the other versions.`;
    case "default":
      return name === LATEST
        ? "Reads that name no version now get the live pages (latest)."
        : `Reads that name no version now get version "${name}".`;
  }
}

/**
 * The versions page of a space (`/w/<id>/-/versions`: every reader sees the list; owners and
 * admins publish, rename, delete and choose the default). Each change redirects to the list,
 * which says what happened. (The version switcher's target, `/w/<id>/-/versions/go`, is the
 * space's: src/spaces/version_view_routes.tsx.)
 */
export function versionManageRoutes(deps: Deps): Hono {
  const app = new Hono();
  const manage = (c: Context) => openSpace(deps, c, "admin", "change its versions");

  app.get("/w/:id/-/versions", async (c) => {
    const view = await openSpace(deps, c, "read");
    const list = await listVersions(deps.db, view.space.wiki.id);
    return c.html(<VersionsPage {...view} list={list} notice={noticeOf(c.req.query())} />);
  });

  app.post("/w/:id/-/versions", async (c) => {
    const view = await manage(c);
    const form = await c.req.parseBody();
    const name = formText(form.name).trim();
    try {
      const wikiId = view.space.wiki.id;
      const out = await publishVersion(deps.db, wikiId, { name }, view.account?.id ?? null);
      if (form.default === "yes") await setDefaultVersion(deps.db, wikiId, out.name);
      return doneRedirect(deps, c, view, { done: "published", name: out.name, pages: out.pages });
    } catch (error) {
      return await refusedChange(deps, c, view, error, name);
    }
  });

  app.post("/w/:id/-/versions/default", async (c) => {
    const view = await manage(c);
    const name = c.req.query("name") ?? "";
    try {
      await setDefaultVersion(deps.db, view.space.wiki.id, name);
      const chosen = name.trim().toLowerCase() === LATEST
        ? LATEST
        : (await listedVersion(deps, view, name)).name;
      return doneRedirect(deps, c, view, { done: "default", name: chosen });
    } catch (error) {
      return await refusedChange(deps, c, view, error);
    }
  });

  app.get("/w/:id/-/versions/rename", async (c) => {
    const view = await manage(c);
    const version = await listedVersion(deps, view, c.req.query("name") ?? "");
    return c.html(<RenameVersionPage {...view} version={version} />);
  });

  app.post("/w/:id/-/versions/rename", async (c) => {
    const view = await manage(c);
    const form = await c.req.parseBody();
    const version = await listedVersion(deps, view, formText(form.name));
    const to = formText(form.to).trim();
    try {
      await renameVersion(deps.db, view.space.wiki.id, version.name, to);
      return doneRedirect(deps, c, view, { done: "renamed", name: version.name, to });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      const page = <RenameVersionPage {...view} version={version} to={to} error={error.detail} />;
      return c.html(page, error.status as 400);
    }
  });

  app.get("/w/:id/-/versions/delete", async (c) => {
    const view = await manage(c);
    const version = await listedVersion(deps, view, c.req.query("name") ?? "");
    const refusal = version.default
      ? defaultVersionRefusal(view.space.wiki.id, version.name)
      : undefined;
    return c.html(<DeleteVersionPage {...view} version={version} refusal={refusal} />);
  });

  app.post("/w/:id/-/versions/delete", async (c) => {
    const view = await manage(c);
    const name = formText((await c.req.parseBody()).name);
    try {
      await deleteVersion(deps.db, view.space.wiki.id, name);
      return doneRedirect(deps, c, view, { done: "deleted", name });
    } catch (error) {
      return await refusedChange(deps, c, view, error);
    }
  });

  return app;
}

/** A version of the space by name (any case), or `version_not_found`. */
async function listedVersion(deps: Deps, view: SpaceView, name: string) {
  const list = await listVersions(deps.db, view.space.wiki.id);
  const version = list.versions.find((v) => v.name.toLowerCase() === name.toLowerCase());
  if (!version) {
    throw new AppError("version_not_found", `Version "${name}" not found in "${list.wiki}"`);
  }
  return version;
}

/** A change made: logged, then the list, which says what happened. */
function doneRedirect(
  deps: Deps,
  c: Context,
  view: SpaceView,
  query: Record<string, string | number>,
) {
  deps.log.info(`version ${query.done}`, {
    request_id: c.get("requestId"),
    wiki: view.space.wiki.id,
    account_id: c.get("account")?.id,
    version: query.name,
  });
  return c.redirect(toolHref(view.space.wiki.id, "versions", query), 303);
}

/** A change the policy or the name refused: the list again, saying why. */
async function refusedChange(
  deps: Deps,
  c: Context,
  view: SpaceView,
  error: unknown,
  name?: string,
) {
  if (!(error instanceof AppError) || error.status >= 500) throw error;
  const list = await listVersions(deps.db, view.space.wiki.id);
  const page = <VersionsPage {...view} list={list} error={error.detail} name={name} />;
  return c.html(page, error.status as 400);
}

import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import type {} from "../http/request_id.ts";
import { cleanPath, pathKey } from "../markdown/paths.ts";
import { deletePage, renamePage } from "../pages/rename_page.ts";
import type { PageRow } from "../db/page_row.ts";
import { DeletePageForm, RenamePageForm } from "./manage_pages.tsx";
import { formText, openSpace, revisionParam } from "../kit/web/space_context.ts";
import { pageHref, spaceHref } from "../kit/web/space_urls.ts";
import { selectLinksTo, selectPage } from "../pages/mod.ts";

/** Renaming and deleting pages, each behind a confirmation form. */
export function manageRoutes(deps: Deps): Hono {
  const app = new Hono();

  renameRoutes(app, deps);
  deleteRoutes(app, deps);

  return app;
}

/** Renaming a page: its form and the rename. */
function renameRoutes(app: Hono, deps: Deps): void {
  app.get("/w/:id/-/rename/:path{.+}", async (c) => {
    const { view, page, backlinks } = await openPage(c, deps);
    return c.html(<RenamePageForm {...view} page={page} backlinks={backlinks} />);
  });

  app.post("/w/:id/-/rename/:path{.+}", async (c) => {
    const { view, page, backlinks } = await openPage(c, deps);
    const form = await c.req.parseBody();
    const newPath = formText(form.new_path).trim();
    const updateLinks = form.update_links === "1";
    const show = (extra: { error?: string; alert?: string }, status: ContentfulStatusCode) =>
      c.html(
        <RenamePageForm
          {...view}
          page={page}
          backlinks={backlinks}
          newPath={newPath}
          updateLinks={updateLinks}
          {...extra}
        />,
        status,
      );
    if (!newPath) return show({ error: "Enter the new path" }, 400);
    if (cleanPath(newPath) === page.path) return c.redirect(pageHref(page.wiki_id, page.path), 303);
    try {
      const renamed = await renamePage(deps, {
        wikiId: page.wiki_id,
        path: page.path,
        newPath,
        baseRevision: revisionParam(form.base_revision),
        updateLinks,
      }, { author: view.account!.id, source: "web" });
      return c.redirect(pageHref(renamed.wiki_id, renamed.path), 303);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const status = error.status as ContentfulStatusCode;
      if (error.code === "invalid_path" || error.code === "page_exists") {
        return show({ error: error.detail }, status);
      }
      if (error.code === "revision_conflict") {
        return show({ alert: changedMeanwhile(page) }, status);
      }
      throw error;
    }
  });
}

/** Deleting a page: its confirmation and the delete. */
function deleteRoutes(app: Hono, deps: Deps): void {
  app.get("/w/:id/-/delete/:path{.+}", async (c) => {
    const { view, page, backlinks } = await openPage(c, deps);
    return c.html(<DeletePageForm {...view} page={page} backlinks={backlinks} />);
  });

  app.post("/w/:id/-/delete/:path{.+}", async (c) => {
    const { view, page, backlinks } = await openPage(c, deps);
    const form = await c.req.parseBody();
    try {
      await deletePage(deps, {
        wikiId: page.wiki_id,
        path: page.path,
        baseRevision: revisionParam(form.base_revision),
      }, { author: view.account!.id, source: "web" });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== "revision_conflict") throw error;
      return c.html(
        <DeletePageForm
          {...view}
          page={page}
          backlinks={backlinks}
          alert={changedMeanwhile(page)}
        />,
        409,
      );
    }
    deps.log.info("page deleted", {
      request_id: c.get("requestId"),
      wiki: page.wiki_id,
      page: page.path,
    });
    return c.redirect(spaceHref(page.wiki_id), 303);
  });
}

/** The wiki (for writing), the page of the route's path and how many pages link to it. */
async function openPage(c: Context, deps: Deps) {
  const view = await openSpace(deps, c, "write");
  const id = view.space.wiki.id;
  const asked = c.req.param("path") ?? "";
  const clean = cleanPath(asked);
  const page = clean ? await selectPage(deps.db, id, pathKey(clean)) : null;
  if (!page) throw new AppError("page_not_found", `Page "${asked}" not found in wiki "${id}"`);
  const from = new Set(
    (await selectLinksTo(deps.db, page.id)).map((l) => l.from_page_id).filter((p) => p !== page.id),
  );
  return { view, page, backlinks: from.size };
}

function changedMeanwhile(page: PageRow): string {
  return `The page changed since you opened this form: it is now at revision ${page.revision}. Check it, then try again.`;
}

import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { findPageRecord } from "./find_page_record.ts";
import { DiffPage, HistoryPage, RecentChangesPage, RevisionPage } from "./history_pages.tsx";
import { lineDiff } from "./line_diff.ts";
import { renderPage } from "./render_page.ts";
import { openSpace, revisionParam } from "../kit/web/space_context.ts";
import { actionHref } from "../kit/web/space_urls.ts";
import { selectRevision } from "../pages/mod.ts";
import { selectHistory, selectRecentChanges } from "./mod.ts";

/** Revisions listed on a history page at most. */
const HISTORY_LIMIT = 500;

/** Reading the past: a wiki's recent changes, a page's revisions, one revision, a diff. */
export function historyRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get("/w/:id/-/history", async (c) => {
    const view = await openSpace(deps, c, "read");
    const changes = await selectRecentChanges(deps.db, view.space.wiki.id, 100);
    return c.html(<RecentChangesPage {...view} changes={changes} />);
  });

  app.get("/w/:id/-/history/:path{.+}", async (c) => {
    const opened = await openHistory(c, deps, "history");
    if (opened instanceof Response) return opened;
    const { view, record } = opened;
    const revisions = await selectHistory(deps.db, record.pageId, HISTORY_LIMIT);
    const asked = revisionParam(c.req.query("revision"));
    if (asked === undefined) {
      return c.html(<HistoryPage {...view} record={record} revisions={revisions} />);
    }
    const revision = await selectRevision(deps.db, record.pageId, asked);
    if (!revision) throw revisionNotFound(asked, record.path);
    const html = await renderPage(deps.db, {
      wikiId: view.space.wiki.id,
      path: revision.path,
      markdown: revision.markdown,
      canCreate: view.space.role !== null,
      title: revision.title,
    });
    return c.html(
      <RevisionPage
        {...view}
        record={record}
        revision={revision}
        html={html}
        latest={revisions[0]?.revision ?? asked}
      />,
    );
  });

  app.get("/w/:id/-/diff/:path{.+}", async (c) => {
    const opened = await openHistory(c, deps, "diff");
    if (opened instanceof Response) return opened;
    const { view, record } = opened;
    const [latest] = await selectHistory(deps.db, record.pageId, 1);
    const to = revisionParam(c.req.query("to"), latest?.revision ?? 1);
    const from = revisionParam(c.req.query("from"), Math.max(0, to - 1));
    const text = async (n: number) => {
      if (n === 0) return "";
      const revision = await selectRevision(deps.db, record.pageId, n);
      if (!revision) throw revisionNotFound(n, record.path);
      return revision.markdown;
    };
    const diff = lineDiff(await text(from), await text(to));
    return c.html(<DiffPage {...view} record={record} from={from} to={to} diff={diff} />);
  });

  return app;
}

/**
 * The wiki and the page whose past is asked for: the page at the path, or the deleted page
 * that had it. A renamed page's old path redirects to its current one.
 */
async function openHistory(c: Context, deps: Deps, action: "history" | "diff") {
  const view = await openSpace(deps, c, "read");
  const id = view.space.wiki.id;
  const asked = c.req.param("path") ?? "";
  const found = await findPageRecord(deps.db, id, asked);
  if (!found) throw new AppError("page_not_found", `Page "${asked}" not found in wiki "${id}"`);
  if (found.kind !== "deleted" && found.page.path !== asked) {
    const query = new URL(c.req.url).search;
    return c.redirect(actionHref(id, action, found.page.path) + query);
  }
  const record = found.kind === "deleted"
    ? { pageId: found.pageId, path: asked, exists: false }
    : { pageId: found.page.id, path: found.page.path, exists: true };
  return { view, record };
}

function revisionNotFound(revision: number, path: string): AppError {
  return new AppError("not_found", `Revision ${revision} of page "${path}" not found`);
}

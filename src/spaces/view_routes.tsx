import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { cleanPath, pathKey } from "../markdown/paths.ts";
import { searchWikis } from "../search/search_wikis.ts";
import { findPageRecord } from "./find_page_record.ts";
import { WikiHomePage } from "./home_page.tsx";
import { pageTree } from "./page_tree.ts";
import { MissingPageView, PageView } from "./page_view.tsx";
import { renderPage } from "./render_page.ts";
import { SearchPage } from "./search_page.tsx";
import { openSpace } from "./space_context.ts";
import { pageHref, spaceHref } from "./space_urls.ts";
import { linksTo, missingTargets } from "../pages/list_neighbors.ts";
import { pageHeads } from "../pages/list_pages.ts";
import { similarPaths } from "../pages/read_page.ts";
import { countWikiPages, recentPages } from "./space_history.ts";

/** Pages listed in a wiki's home tree at most; search reaches the rest. */
const TREE_PAGES = 2_000;

/**
 * Reading a wiki: its home, its search and its pages. Mount last: the page route takes any
 * path under `/w/<id>/`.
 */
export function viewRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get("/w/:id", async (c) => {
    const view = await openSpace(deps, c, "read");
    const id = view.space.wiki.id;
    const [pageCount, recent, heads, wanted] = await Promise.all([
      countWikiPages(deps.db, id),
      recentPages(deps.db, id, 10),
      pageHeads(deps.db, id, { afterKey: null, limit: TREE_PAGES + 1 }),
      view.space.role ? missingTargets(deps.db, id, 20) : [],
    ]);
    return c.html(
      <WikiHomePage
        {...view}
        pageCount={pageCount}
        recent={recent}
        tree={pageTree(heads.slice(0, TREE_PAGES))}
        treeTruncated={heads.length > TREE_PAGES}
        wanted={wanted}
      />,
    );
  });

  app.get("/w/:id/", (c) => c.redirect(spaceHref(c.req.param("id")), 301));

  app.get("/w/:id/-/search", async (c) => {
    const view = await openSpace(deps, c, "read");
    const query = c.req.query("q")?.trim() ?? "";
    if (!query) return c.html(<SearchPage {...view} query="" results={null} nextCursor={null} />);
    try {
      const found = await searchWikis(deps, [view.space.wiki.id], {
        query,
        limit: 20,
        cursor: c.req.query("cursor") || undefined,
      });
      const results = found.results.map((r) => ({
        ...r,
        href: relative(r.url, deps.config.baseUrl),
      }));
      return c.html(
        <SearchPage {...view} query={query} results={results} nextCursor={found.next_cursor} />,
      );
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 400) throw error;
      return c.html(
        <SearchPage
          {...view}
          query={query}
          results={null}
          nextCursor={null}
          error={error.detail}
        />,
        400,
      );
    }
  });

  app.get("/w/:id/:path{.+}", async (c, next) => {
    const asked = c.req.param("path");
    const path = cleanPath(asked);
    // Tools of other features live under `-/` too (no page path starts with it): theirs to
    // answer, before any access check of ours.
    if (path?.split("/")[0] === "-") return await next();
    const view = await openSpace(deps, c, "read");
    const { wiki, role } = view.space;
    if (!path) throw new AppError("not_found", `No page "${asked}" in wiki "${wiki.id}"`);
    const record = await findPageRecord(deps.db, wiki.id, path);
    if (record?.kind === "moved" || (record?.kind === "page" && record.page.path !== asked)) {
      return c.redirect(pageHref(wiki.id, record.page.path));
    }
    if (record?.kind !== "page") {
      const suggestions = await similarPaths(deps.db, wiki.id, pathKey(path));
      return c.html(
        <MissingPageView
          {...view}
          path={path}
          suggestions={suggestions}
          deleted={record?.kind === "deleted" ? record.last : null}
        />,
        404,
      );
    }
    const { page } = record;
    const [html, links] = await Promise.all([
      renderPage(deps.db, {
        wikiId: wiki.id,
        path: page.path,
        markdown: page.markdown,
        canCreate: role !== null,
        title: page.title,
      }),
      linksTo(deps.db, page.id),
    ]);
    const backlinks = new Map<string, { path: string; title: string }>();
    for (const link of links) {
      if (link.from_page_id === page.id) continue;
      backlinks.set(link.other_path!, { path: link.other_path!, title: link.other_title! });
    }
    return c.html(
      <PageView {...view} page={page} html={html} backlinks={[...backlinks.values()]} />,
    );
  });

  return app;
}

/** A URL of this site without its origin, so links work whatever host the page was served on. */
function relative(url: string, baseUrl: string): string {
  return url.startsWith(baseUrl) ? url.slice(baseUrl.length) || "/" : url;
}

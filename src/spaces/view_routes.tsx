import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { cleanPath, pathKey } from "../markdown/paths.ts";
import type { PageRow } from "../db/page_row.ts";
import { findPageRecord } from "./find_page_record.ts";
import { WikiHomePage } from "./home_page.tsx";
import { readingOrder, type TreeNode } from "../markdown/page_tree.ts";
import { MissingPageView, PageView } from "./page_view.tsx";
import { renderPage } from "./render_page.ts";
import { suggestSections } from "./suggest_sections.ts";
import { suggestTitles } from "./suggest_titles.ts";
import { openSpace } from "../kit/web/space_context.ts";
import { pageHref, spaceHref } from "../kit/web/space_urls.ts";
import type { SpaceView } from "../kit/web/wiki_frame.tsx";
import { selectLinksTo, selectMissingTargets, selectSimilarPaths } from "../pages/mod.ts";
import { countPages, selectRecentPages } from "./mod.ts";
import { versionNamesOf } from "../versions/versions.ts";

/**
 * Reading a wiki: its home, its index and its pages (its search and Ask pages: `search/`, `ask/`). Mount last: the page route takes any
 * path under `/w/<id>/`.
 */
export function viewRoutes(deps: Deps): Hono {
  const app = new Hono();

  // The wiki's root is its Home page when it has one (`Home`, else `README` or `index`, as
  // imports bring them); the index of every page is one click away at `-/pages`.
  app.get("/w/:id", async (c) => {
    const view = await openSpace(deps, c, "read");
    const home = homePath(view.nav?.tree ?? []);
    const record = home ? await findPageRecord(deps.db, view.space.wiki.id, home) : null;
    if (record?.kind === "page") {
      return c.html(await pageView(deps, view, record.page, true, c.req.query("missing")));
    }
    return c.html(await indexView(deps, view));
  });

  app.get("/w/:id/-/pages", async (c) => {
    const view = await openSpace(deps, c, "read");
    return c.html(await indexView(deps, view));
  });

  app.get("/w/:id/", (c) => c.redirect(spaceHref(c.req.param("id")), 301));

  // Results as you type (search.js, palette.js): titles and headings that match the words
  // (prefixes, one typo in longer words), then the best sections by the wiki's own search.
  app.get("/w/:id/-/suggest", async (c) => {
    const view = await openSpace(deps, c, "read");
    const query = (c.req.query("q") ?? "").trim().slice(0, 200);
    if (query.length < 2) return c.json({ results: [] });
    const order = readingOrder(view.nav?.tree ?? []);
    const titles = (await suggestTitles(deps.db, view.space.wiki.id, order, query))
      .map(({ score: _, ...t }) => t);
    const sections = (await suggestSections(deps, [view.space.wiki.id], query))
      .map(({ wiki: _, ...s }) => s);
    // A page or section already named by its title is not listed again for its text.
    const seen = new Set(titles.map((t) => t.href));
    const more = sections.filter((s) => !seen.has(s.href) && !seen.has(s.href.split("#")[0]!));
    const results = [...titles, ...more].slice(0, 8);
    return c.json({ results });
  });

  app.get("/w/:id/:path{.+}", async (c, next) => {
    const asked = c.req.param("path");
    const path = cleanPath(asked);
    // Tools of other features live under `-/` too (no page path starts with it): theirs to
    // answer, before any access check of ours.
    if (path?.split("/")[0] === "-") return await next();
    const view = await openSpace(deps, c, "read");
    const { wiki } = view.space;
    if (!path) throw new AppError("not_found", `No page "${asked}" in wiki "${wiki.id}"`);
    const record = await findPageRecord(deps.db, wiki.id, path);
    if (record?.kind === "moved" || (record?.kind === "page" && record.page.path !== asked)) {
      return c.redirect(pageHref(wiki.id, record.page.path));
    }
    if (record?.kind !== "page") {
      const suggestions = await selectSimilarPaths(deps.db, wiki.id, pathKey(path));
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
    return c.html(await pageView(deps, view, record.page, false));
  });

  return app;
}

/** The index of a wiki: the pages changed last, every page as a tree, the wanted pages. */
async function indexView(deps: Deps, view: SpaceView) {
  const id = view.space.wiki.id;
  const nav = view.nav!;
  const [recent, wanted] = await Promise.all([
    selectRecentPages(deps.db, id, 10),
    view.space.role ? selectMissingTargets(deps.db, id, 20) : [],
  ]);
  return (
    <WikiHomePage
      {...view}
      pageCount={await countPages(deps.db, id)}
      recent={recent}
      tree={nav.tree}
      treeTruncated={nav.truncated}
      wanted={wanted}
    />
  );
}

/**
 * A page as people read it, with its backlinks and the space's versions; `home` at the wiki's
 * root (`missing`: the page the version switcher came from, not in the live pages).
 */
async function pageView(
  deps: Deps,
  view: SpaceView,
  page: PageRow,
  home: boolean,
  missing?: string,
) {
  const { wiki, role } = view.space;
  const [html, links, versions] = await Promise.all([
    renderPage(deps.db, {
      wikiId: wiki.id,
      path: page.path,
      markdown: page.markdown,
      canCreate: role !== null,
      title: page.title,
    }),
    selectLinksTo(deps.db, page.id),
    versionNamesOf(deps.db, [wiki.id]),
  ]);
  const backlinks = new Map<string, { path: string; title: string }>();
  for (const link of links) {
    if (link.from_page_id === page.id) continue;
    backlinks.set(link.other_path!, { path: link.other_path!, title: link.other_title! });
  }
  return (
    <PageView
      {...view}
      page={page}
      html={html}
      backlinks={[...backlinks.values()]}
      home={home}
      versions={versions.get(wiki.id)}
      missing={missing}
    />
  );
}

/** Which top-level page greets readers at a wiki's root, if any. */
function homePath(tree: TreeNode[]): string | null {
  for (const name of ["home", "readme", "index"]) {
    const node = tree.find((n) => n.title !== null && pathKey(n.path) === name);
    if (node) return node.path;
  }
  return null;
}

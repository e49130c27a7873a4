import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { loadWebSpace } from "../kit/web/space_access.ts";
import { openSpace } from "../kit/web/space_context.ts";
import { pageHref, spaceHref } from "../kit/web/space_urls.ts";
import { VersionSwitcher } from "../kit/web/version_switcher.tsx";
import { type SpaceView, WikiFrame } from "../kit/web/wiki_frame.tsx";
import { splitVersion, versionPageUrl } from "../lib/urls.ts";
import { cleanPath, pathKey } from "../markdown/paths.ts";
import { selectPage } from "../pages/mod.ts";
import {
  resolveVersionPage,
  type VersionPage,
  versionPageIndex,
  versionPages,
} from "../versions/version_pages.ts";
import {
  LATEST,
  listVersions,
  resolveVersion,
  type Version,
  type VersionList,
} from "../versions/versions.ts";
import { renderPage } from "./render_page.ts";

/** `/w/<id>@<version>` as a route segment: a wiki id, `@`, a version name. */
const SPEC = ":spec{[a-z0-9-]+@[^/]+}";

/** Pages a version's home lists when it has no home page. */
const BATCH = 500;

/**
 * The web app's pages in a version, rendered as the space's page view renders its pages: a
 * page (`/w/<id>@<v>/Page`, with a banner on a version that is not the default and the version
 * switcher), a version's home (`/w/<id>@<v>`: its Home, README or index page, else the list of
 * its pages) and the version switcher's target (`/w/<id>/-/versions/go`). Mount before the
 * space's own routes.
 */
export function versionViewRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get("/w/:id/-/versions/go", async (c) => {
    const view = await openSpace(deps, c, "read");
    return c.redirect(await switchTarget(deps, view.space.wiki.id, c.req.query()), 303);
  });

  app.get(`/w/${SPEC}`, async (c) => {
    const [id, name] = splitVersion(c.req.param("spec"));
    const view = await spaceView(deps, c, id);
    const wikiId = view.space.wiki.id;
    const version = await resolveVersion(deps.db, wikiId, name ?? LATEST);
    const missing = c.req.query("missing");
    if (!version) {
      return c.redirect(`/w/${wikiId}${missing ? `?missing=${encodeURIComponent(missing)}` : ""}`);
    }
    const index = await versionPageIndex(deps.db, version);
    const home = ["home", "readme", "index"].find((key) => index.byKey.has(key));
    if (home) {
      const page = await resolveVersionPage(deps.db, version, home);
      return await versionPageView(deps, c, view, version, page);
    }
    const pages = await versionPages(deps.db, version, {
      afterKey: null,
      limit: BATCH,
      prefix: null,
    });
    return c.html(
      <WikiFrame {...view} title={`${view.space.wiki.title} (${version.name})`}>
        <VersionHead
          list={await listVersions(deps.db, wikiId)}
          missing={missing}
          version={version}
        />
        <ul>
          {pages.map((p) => (
            <li>
              <a href={versionPageUrl("", wikiId, version.name, p.path)}>{p.title}</a>
            </li>
          ))}
        </ul>
      </WikiFrame>,
    );
  });

  app.get(`/w/${SPEC}/:path{.+}`, async (c) => {
    const [id, name] = splitVersion(c.req.param("spec"));
    const view = await spaceView(deps, c, id);
    const wikiId = view.space.wiki.id;
    const path = cleanPath(c.req.param("path"));
    if (!path) throw new AppError("not_found", `No page "${c.req.param("path")}"`);
    const version = await resolveVersion(deps.db, wikiId, name ?? LATEST);
    if (!version) return c.redirect(`/w/${wikiId}/${path}`);
    const page = await resolveVersionPage(deps.db, version, path);
    return await versionPageView(deps, c, view, version, page);
  });
  return app;
}

/** A page of a version, its links kept in the version. */
async function versionPageView(
  deps: Deps,
  c: Context,
  view: SpaceView,
  version: Version,
  page: VersionPage,
) {
  const wikiId = view.space.wiki.id;
  const html = (await renderPage(deps.db, {
    wikiId,
    path: page.path,
    markdown: page.markdown,
    canCreate: false,
    title: page.title,
  })).replaceAll(
    `href="/w/${wikiId}/`,
    `href="/w/${wikiId}@${encodeURIComponent(version.name)}/`,
  );
  return c.html(
    <WikiFrame {...view} title={`${page.title} (${version.name})`} path={page.path}>
      <VersionHead
        list={await listVersions(deps.db, wikiId)}
        missing={c.req.query("missing")}
        version={version}
        path={page.path}
      />
      <article class="prose" dangerouslySetInnerHTML={{ __html: html }} />
      <p class="hint page-meta">
        <code>{page.path}</code> · version {version.name} · revision {page.revision} ·{" "}
        <a href={`${versionPageUrl("", wikiId, version.name, page.path)}.md`}>Markdown</a>
      </p>
    </WikiFrame>,
  );
}

/**
 * The head of a view in a version: a banner when it is not the default (with a link to the
 * same page, or home, in the default) and the version switcher.
 */
function VersionHead(
  props: { list: VersionList; missing: string | undefined; version: Version; path?: string },
) {
  const { version, path, list } = props;
  const fallback = list.default === LATEST ? null : list.default;
  const defaultHref = path
    ? versionPageUrl("", version.wikiId, fallback, path)
    : fallback
    ? `/w/${version.wikiId}@${encodeURIComponent(fallback)}`
    : `/w/${version.wikiId}`;
  return (
    <>
      {!version.isDefault && (
        <p class="banner" role="note">
          You are reading version <strong>{version.name}</strong>. The default is{" "}
          <strong>{list.default}</strong>:{" "}
          <a href={defaultHref}>{path ? "this page" : "its home"} in {list.default}</a>
        </p>
      )}
      <VersionSwitcher
        wikiId={version.wikiId}
        versions={[...list.versions].reverse().map((v) => v.name)}
        defaultName={list.default}
        current={version.name}
        path={path}
        missing={props.missing}
      />
    </>
  );
}

async function spaceView(deps: Deps, c: Context, id: string): Promise<SpaceView> {
  const space = await loadWebSpace(deps, c, id, "read");
  return { account: c.get("account"), csrfToken: c.get("csrfToken"), space };
}

/**
 * Where the switcher goes: the page at `path` in version `v`, or that version's home with
 * `?missing=<path>` (the home says the page is not in it). An unknown version is an error
 * that lists the versions there are.
 */
async function switchTarget(
  deps: Pick<Deps, "db">,
  wikiId: string,
  query: Record<string, string>,
): Promise<string> {
  const path = query.path?.trim() || null;
  const missing = path ? `?missing=${encodeURIComponent(path)}` : "";
  const version = await resolveVersion(deps.db, wikiId, query.v?.trim() || LATEST);
  if (!version) {
    const page = path ? await selectPage(deps.db, wikiId, pathKey(path)) : null;
    return page ? pageHref(wikiId, page.path) : `${spaceHref(wikiId)}${missing}`;
  }
  const home = `/w/${wikiId}@${encodeURIComponent(version.name)}`;
  if (!path) return home;
  try {
    const page = await resolveVersionPage(deps.db, version, path);
    return `${home}/${page.path.split("/").map(encodeURIComponent).join("/")}`;
  } catch (error) {
    if (!(error instanceof AppError && error.code === "page_not_found")) throw error;
    return `${home}${missing}`;
  }
}

import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { ANONYMOUS, authorize } from "../access/access_policy.ts";
import { loadWebSpace } from "../kit/web/space_access.ts";
import { chargeExport } from "../attachments/export_budget.ts";
import { clientIp } from "../http/client_ip.ts";
import { rateLimit } from "../limits/rate_limit.ts";
import { cleanPath } from "../markdown/paths.ts";
import { renderPage } from "../spaces/render_page.ts";
import { WikiFrame } from "../kit/web/wiki_frame.tsx";
import type { SpaceView } from "../kit/web/wiki_frame.tsx";
import { splitVersion, versionPageUrl } from "../lib/urls.ts";
import { VersionSwitcher } from "../kit/web/version_switcher.tsx";
import {
  resolveVersionPage,
  type VersionPage,
  versionPageIndex,
  versionPages,
} from "./version_pages.ts";
import {
  LATEST,
  listVersions,
  resolveVersion,
  type Version,
  type VersionList,
} from "./versions.ts";
import { exportVersionZip } from "./version_export.ts";

/** `/w/<id>@<version>` as a route segment: a wiki id, `@`, a version name. */
const SPEC = ":spec{[a-z0-9-]+@[^/]+}";

/** Pages read per statement for a version's llms.txt. */
const BATCH = 500;

/** A wiki id and version from `<id>@<version>`; the version must exist (or be "latest"). */
async function versionOf(deps: Pick<Deps, "db">, wikiId: string, name: string) {
  const version = await resolveVersion(deps.db, wikiId, name);
  return version;
}

/**
 * Machine reads of a public wiki's version, beside `llms.txt` and the `.md` views of the live
 * pages (src/wikis/llms_routes.ts): `/w/<id>@<v>/llms.txt`, `/w/<id>@<v>/<path>.md` and
 * `/w/<id>@<v>/-/export` (a zip of the version's markdown). Mount before `llmsRoutes`.
 */
export function versionReadRoutes(deps: Deps): Hono {
  const app = new Hono();
  const budget = rateLimit(deps, "api");
  const open = async (spec: string) => {
    const [id, name] = splitVersion(spec);
    const { wiki } = await authorize(deps, ANONYMOUS, id, "read", "web");
    return { wiki, version: await versionOf(deps, wiki.id, name ?? LATEST) };
  };
  const text = (body: string, type = "text/plain") =>
    new Response(body, {
      headers: { "Content-Type": `${type}; charset=utf-8`, "Cache-Control": "public, max-age=300" },
    });

  app.get(`/w/${SPEC}/llms.txt`, budget, async (c) => {
    const { wiki, version } = await open(c.req.param("spec"));
    if (!version) return c.redirect(`/w/${wiki.id}/llms.txt`);
    const lines = [`# ${wiki.title} (version ${version.name})`, ""];
    if (wiki.description) lines.push(`> ${wiki.description}`, "");
    lines.push("## Pages", "");
    await eachPage(deps, version, (p) => {
      lines.push(
        `- [${p.title}](${versionPageUrl(deps.config.baseUrl, wiki.id, version.name, p.path)}.md)`,
      );
    });
    return text([...lines, ""].join("\n"));
  });

  app.get(`/w/${SPEC}/-/export`, budget, async (c) => {
    const { wiki, version } = await open(c.req.param("spec"));
    if (!version) return c.redirect(`/w/${wiki.id}/-/export`);
    // The live export's budget and path: streamed, capped, a few an hour per address.
    await chargeExport(deps, null, clientIp(c, deps.config));
    return c.body(await exportVersionZip(deps, version), 200, {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${wiki.id}@${version.name}.zip"`,
    });
  });

  app.get(`/w/${SPEC}/:path{.+\\.md}`, budget, async (c) => {
    const { wiki, version } = await open(c.req.param("spec"));
    const path = c.req.param("path").replace(/\.md$/, "");
    if (!version) return c.redirect(`/w/${wiki.id}/${path}.md`);
    const page = await resolveVersionPage(deps.db, version, path);
    return text(page.markdown, "text/markdown");
  });
  return app;
}

async function eachPage(
  deps: Pick<Deps, "db">,
  version: Version,
  each: (page: { path: string; title: string; markdown: string }) => void,
) {
  for (let after: string | null = null;;) {
    const batch = await versionPages(deps.db, version, {
      afterKey: after,
      limit: BATCH,
      prefix: null,
    });
    batch.forEach(each);
    if (batch.length < BATCH) break;
    after = batch[batch.length - 1]!.path_key;
  }
}

/**
 * The web app's pages in a version: a page (`/w/<id>@<v>/Page`, with a banner on a version
 * that is not the default and the version switcher) and a version's home (`/w/<id>@<v>`: its
 * Home, README or index page, else the list of its pages). Mount before the space's own routes.
 */
export function versionWebRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get(`/w/${SPEC}`, async (c) => {
    const [id, name] = splitVersion(c.req.param("spec"));
    const view = await spaceView(deps, c, id);
    const wikiId = view.space.wiki.id;
    const version = await versionOf(deps, wikiId, name ?? LATEST);
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
    const version = await versionOf(deps, wikiId, name ?? LATEST);
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

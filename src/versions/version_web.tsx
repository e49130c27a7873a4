import { type Context, Hono } from "hono";
import { zipSync } from "fflate";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { ANONYMOUS, authorize } from "../access/access_policy.ts";
import { loadWebSpace } from "../kit/web/space_access.ts";
import { rateLimit } from "../limits/rate_limit.ts";
import { cleanPath } from "../markdown/paths.ts";
import { renderPage } from "../spaces/render_page.ts";
import { WikiFrame } from "../kit/web/wiki_frame.tsx";
import type { SpaceView } from "../kit/web/wiki_frame.tsx";
import { splitVersion, versionPageUrl } from "../lib/urls.ts";
import { resolveVersionPage, versionPages } from "./version_pages.ts";
import { LATEST, listVersions, resolveVersion, type Version } from "./versions.ts";

/** `/w/<id>@<version>` as a route segment: a wiki id, `@`, a version name. */
const SPEC = ":spec{[a-z0-9-]+@[^/]+}";

/** Pages read per statement for a version's llms.txt and export. */
const BATCH = 500;

/** A wiki id and version from `<id>@<version>`; the version must exist (or be "latest"). */
async function versionOf(deps: Pick<Deps, "db">, wikiId: string, name: string) {
  const version = await resolveVersion(deps.db, wikiId, name);
  return version;
}

/**
 * Machine reads of a public wiki's version, beside `llms.txt` and the `.md` views of the live
 * pages (src/pages/llms_routes.ts): `/w/<id>@<v>/llms.txt`, `/w/<id>@<v>/<path>.md` and
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
    const files: Record<string, Uint8Array> = {};
    const encoder = new TextEncoder();
    await eachPage(deps, version, (p) => {
      files[`${wiki.id}@${version.name}/${p.path}.md`] = encoder.encode(p.markdown);
    });
    return new Response(zipSync(files), {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="${wiki.id}@${version.name}.zip"`,
      },
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
 * The web app's pages of versions: a page in a version (`/w/<id>@<v>/Page`, with a banner on a
 * version that is not the default and a switcher), and the space's versions
 * (`/w/<id>/-/versions`). Mount before the space's own routes.
 */
export function versionWebRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get("/w/:id/-/versions", async (c) => {
    const view = await spaceView(deps, c, c.req.param("id"));
    const list = await listVersions(deps.db, view.space.wiki.id);
    return c.html(
      <WikiFrame {...view} title={`Versions of ${view.space.wiki.title}`}>
        <h1>Versions</h1>
        <p class="hint">
          Reads that name no version get <strong>{list.default}</strong>.
        </p>
        <VersionSwitcher wikiId={view.space.wiki.id} names={list.versions.map((v) => v.name)} />
        <VersionTable wikiId={view.space.wiki.id} versions={list.versions} />
        <p class="hint">
          Owners publish, rename and delete versions over REST (
          <code>/api/v1/spaces/{view.space.wiki.id}/versions</code>) or with{" "}
          <code>deno task admin publish-version</code>; see the guide's Versions page.
        </p>
      </WikiFrame>,
    );
  });

  app.get(`/w/${SPEC}`, (c) => c.redirect(`/w/${c.req.param("spec")}/Home`));

  app.get(`/w/${SPEC}/:path{.+}`, async (c) => {
    const [id, name] = splitVersion(c.req.param("spec"));
    const view = await spaceView(deps, c, id);
    const wikiId = view.space.wiki.id;
    const path = cleanPath(c.req.param("path"));
    if (!path) throw new AppError("not_found", `No page "${c.req.param("path")}"`);
    const version = await versionOf(deps, wikiId, name ?? LATEST);
    if (!version) return c.redirect(`/w/${wikiId}/${path}`);
    const page = await resolveVersionPage(deps.db, version, path);
    const fallback = await resolveVersion(deps.db, wikiId);
    const list = await listVersions(deps.db, wikiId);
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
    const defaultName = fallback?.name ?? LATEST;
    const defaultHref = fallback
      ? `/w/${wikiId}@${encodeURIComponent(fallback.name)}/${page.path}`
      : `/w/${wikiId}/${page.path}`;
    return c.html(
      <WikiFrame {...view} title={`${page.title} (${version.name})`} path={page.path}>
        {!version.isDefault && (
          <p class="banner" role="note">
            You are reading version <strong>{version.name}</strong>. The default is{" "}
            <strong>{defaultName}</strong>: <a href={defaultHref}>this page in {defaultName}</a>
          </p>
        )}
        <VersionSwitcher
          wikiId={wikiId}
          names={list.versions.map((v) => v.name)}
          current={version.name}
          path={page.path}
        />
        <article class="prose" dangerouslySetInnerHTML={{ __html: html }} />
        <p class="hint page-meta">
          <code>{page.path}</code> · version {version.name} · revision {page.revision} ·{" "}
          <a href={`/w/${wikiId}@${encodeURIComponent(version.name)}/${page.path}.md`}>Markdown</a>
        </p>
      </WikiFrame>,
    );
  });
  return app;
}

/** The space's versions, each with its pages, date, source and a zip of it. */
function VersionTable(
  props: { wikiId: string; versions: Awaited<ReturnType<typeof listVersions>>["versions"] },
) {
  return (
    <table>
      <thead>
        <tr>
          <th>Version</th>
          <th>Pages</th>
          <th>Published</th>
          <th>From</th>
          <th>Export</th>
        </tr>
      </thead>
      <tbody>
        {props.versions.map((v) => (
          <tr>
            <td>
              <a href={`/w/${props.wikiId}@${encodeURIComponent(v.name)}`}>{v.name}</a>
              {v.default ? " (default)" : ""}
            </td>
            <td>{v.pages}</td>
            <td>{v.created_at.slice(0, 10)}</td>
            <td>{v.source_ref ?? "published"}</td>
            <td>
              <a href={`/w/${props.wikiId}@${encodeURIComponent(v.name)}/-/export`}>
                zip
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Links to the same page (or the wiki) in each version and in the live pages. */
function VersionSwitcher(
  props: { wikiId: string; names: string[]; current?: string; path?: string },
) {
  const tail = props.path ? `/${props.path}` : "";
  return (
    <nav aria-label="Versions" class="tools version-switcher">
      {"Version: "}
      {[...props.names, LATEST].map((name) => {
        const href = name === LATEST
          ? `/w/${props.wikiId}${tail}`
          : `/w/${props.wikiId}@${encodeURIComponent(name)}${tail}`;
        return name === props.current
          ? <strong aria-current="page">{name}</strong>
          : <a href={href}>{name}</a>;
      })}
    </nav>
  );
}

async function spaceView(deps: Deps, c: Context, id: string): Promise<SpaceView> {
  const space = await loadWebSpace(deps, c, id, "read");
  return { account: c.get("account"), csrfToken: c.get("csrfToken"), space };
}

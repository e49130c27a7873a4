import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { ANONYMOUS, authorize } from "../access/access_policy.ts";
import { chargeExport } from "../attachments/export_budget.ts";
import { clientIp } from "../http/client_ip.ts";
import { rateLimit } from "../limits/rate_limit.ts";
import { splitVersion, versionPageUrl } from "../lib/urls.ts";
import { resolveVersionPage, versionPages } from "./version_pages.ts";
import { LATEST, resolveVersion, type Version } from "./versions.ts";
import { exportVersionZip } from "./version_export.ts";

/** `/w/<id>@<version>` as a route segment: a wiki id, `@`, a version name. */
const SPEC = ":spec{[a-z0-9-]+@[^/]+}";

/** Pages read per statement for a version's llms.txt. */
const BATCH = 500;

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
    return { wiki, version: await resolveVersion(deps.db, wiki.id, name ?? LATEST) };
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

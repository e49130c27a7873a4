import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { formText, openSpace } from "../kit/web/space_context.ts";
import { toolHref } from "../kit/web/space_urls.ts";
import type { SiteLook } from "../markdown/nav_doc.ts";
import { readSiteForm, type SiteForm } from "./site_look.ts";
import { SitePage } from "./site_page.tsx";
import { loadNavDoc, saveNavDoc } from "./space_nav_doc.ts";

function formOf(site: SiteLook): SiteForm {
  return {
    title: site.title ?? "",
    logo: site.logo ?? "",
    accent: site.accent ?? "",
    links: (site.links ?? []).map((l) => `${l.title} ${l.href}`).join("\n"),
  };
}

/** `GET/POST /w/<id>/-/site`: the published site's look (owners and admins). */
export function siteRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.get("/w/:id/-/site", async (c) => {
    const view = await openSpace(deps, c, "admin");
    return c.html(
      <SitePage
        {...view}
        values={formOf(view.nav!.doc.site)}
        saved={c.req.query("saved") === "1"}
      />,
    );
  });
  app.post("/w/:id/-/site", async (c) => {
    const view = await openSpace(deps, c, "admin");
    const body = await c.req.parseBody();
    const values: SiteForm = {
      title: formText(body.title),
      logo: formText(body.logo),
      accent: formText(body.accent),
      links: formText(body.links),
    };
    const read = readSiteForm(values);
    if (!read.ok) return c.html(<SitePage {...view} values={values} error={read.error} />, 400);
    const wikiId = view.space.wiki.id;
    const doc = await loadNavDoc(deps.db, wikiId);
    await saveNavDoc(deps.db, wikiId, { ...doc, site: read.site });
    return c.redirect(toolHref(wikiId, "site", { saved: 1 }), 303);
  });
  return app;
}

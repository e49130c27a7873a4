import { type SiteLook, siteSchema } from "../markdown/nav_doc.ts";

/** The site form as posted. */
export type SiteForm = { title: string; logo: string; accent: string; links: string };

/**
 * A site form checked: a title, a logo served by this site (a path such as
 * `/w/<id>/-/files/logo.png`: the pages allow images from here only), an accent colour
 * `#rrggbb`, and header links one a line as `Title https://…`. Returns the look, or the error.
 */
export function readSiteForm(
  form: SiteForm,
): { ok: true; site: SiteLook } | { ok: false; error: string } {
  const logo = form.logo.trim();
  if (logo && (!logo.startsWith("/") || logo.startsWith("//"))) {
    return {
      ok: false,
      error: "The logo is a path on this site, such as /w/<id>/-/files/logo.png",
    };
  }
  const links = [];
  for (const line of form.links.split(/\r?\n/).map((l) => l.trim()).filter(Boolean)) {
    const m = /^(.+?)\s+(https?:\/\/\S+|\/\S*)$/.exec(line);
    if (!m) return { ok: false, error: `"${line}" is not "Title https://…"` };
    links.push({ title: m[1]!.slice(0, 100), href: m[2]! });
  }
  const parsed = siteSchema.safeParse({
    ...(form.title.trim() ? { title: form.title.trim() } : {}),
    ...(logo ? { logo } : {}),
    ...(form.accent.trim() ? { accent: form.accent.trim() } : {}),
    ...(links.length ? { links } : {}),
  });
  if (!parsed.success) {
    return { ok: false, error: "Check the fields: an accent colour is #rrggbb, at most 8 links" };
  }
  return { ok: true, site: parsed.data };
}

import { Alert, CsrfField } from "../kit/web/form_kit.tsx";
import { toolHref } from "../kit/web/space_urls.ts";
import { type SpaceView, WikiFrame } from "../kit/web/wiki_frame.tsx";
import type { SiteForm } from "./site_look.ts";

/** The published site's look (owners): its title, logo, accent colour and header links. */
export function SitePage(
  props: SpaceView & { values: SiteForm; error?: string | undefined; saved?: boolean },
) {
  const wiki = props.space.wiki;
  return (
    <WikiFrame {...props} title="Published site">
      <p class="hint">
        How readers who are not members see this wiki: a docs site with this title, logo, accent
        colour and header links. Members keep the wiki's own bar.
      </p>
      {props.saved && <p role="status">Saved.</p>}
      <Alert message={props.error} />
      <form method="post" action={toolHref(wiki.id, "site")}>
        <CsrfField token={props.csrfToken} />
        <p>
          <label for="site-title">Site title</label>
          <input id="site-title" name="title" value={props.values.title} maxlength={200} />
        </p>
        <p>
          <label for="site-logo">
            Logo (a file of this wiki, such as /w/{wiki.id}/-/files/logo.png)
          </label>
          <input id="site-logo" name="logo" value={props.values.logo} maxlength={500} />
        </p>
        <p>
          <label for="site-accent">Accent colour</label>
          <input
            id="site-accent"
            name="accent"
            type="color"
            value={props.values.accent || "#0645ad"}
          />
        </p>
        <p>
          <label for="site-links">Header links, one a line: Title https://…</label>
          <textarea id="site-links" name="links" rows={4}>{props.values.links}</textarea>
        </p>
        <button type="submit">Save</button>
      </form>
    </WikiFrame>
  );
}

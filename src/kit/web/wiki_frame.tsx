import { type Child, Fragment } from "hono/jsx";
import { canWrite, manages } from "../../access/role.ts";
import { SearchForm } from "./form_kit.tsx";
import { Layout, type PageContext } from "./layout.tsx";
import type { WebSpace } from "./space_access.ts";
import { Crumbs, Sidebar } from "./sidebar.tsx";
import { newPageHref, spaceHref, toolHref } from "./space_urls.ts";
import type { SiteLook } from "../../markdown/nav_doc.ts";
import type { SpaceNav } from "../../markdown/page_tree.ts";

/** What every page of a wiki is rendered with: the visitor, the wiki with their role, and
 * (on a GET) its page tree for the sidebar. */
export type SpaceView = PageContext & { space: WebSpace; nav?: SpaceNav | undefined };

/**
 * The frame of a wiki's pages: a bar with the breadcrumb, the wiki's search form and its
 * tools; then the page's title and content beside the sidebar of pages (`Sidebar`) and, for
 * long pages, the table of contents given as `toc`. Scripts named in `scripts` load from
 * `/assets/` (progressive enhancement: every page works without).
 */
export function WikiFrame(
  props: SpaceView & {
    title: string;
    /** The page (or page path) the view is about: its folders follow the wiki's name. */
    path?: string;
    query?: string;
    scripts?: string[];
    /** Shown beside a long page: its sections (`TableOfContents`). */
    toc?: Child;
    children?: Child;
  },
) {
  const { wiki } = props.space;
  return (
    <Layout
      title={props.title}
      account={props.account}
      csrfToken={props.csrfToken}
      wide
      heading={false}
    >
      {props.space.role === null && props.nav && (
        <SiteHead wikiId={wiki.id} site={props.nav.doc.site} />
      )}
      <div class="wiki-bar">
        <Crumbs
          wikiId={wiki.id}
          wikiTitle={(props.space.role === null && props.nav?.doc.site.title) || wiki.title}
          path={props.path}
          nav={props.nav}
        />
        {wiki.visibility === "private" && <span class="badge">Private</span>}
        <SearchForm
          action={toolHref(wiki.id, "search")}
          suggest={toolHref(wiki.id, "suggest")}
          label="Search"
          query={props.query}
        >
          <button type="submit" class="secondary" formaction={toolHref(wiki.id, "ask")}>
            Ask
          </button>
        </SearchForm>
        <SpaceTools space={props.space} />
      </div>
      <div class={props.nav ? "wiki-grid" : "wiki-grid no-side"}>
        <div class="page-head">
          <h1>{props.title}</h1>
        </div>
        {props.toc && <div class="toc-area">{props.toc}</div>}
        <div class="wiki-content">{props.children}</div>
        {props.nav && (
          <Sidebar
            wikiId={wiki.id}
            nav={props.nav}
            current={props.path}
            member={props.space.role !== null}
          />
        )}
      </div>
      {props.scripts?.map((name) => (
        <Fragment key={name}>
          <script src={`/assets/${name}`} defer></script>
        </Fragment>
      ))}
    </Layout>
  );
}

/**
 * The tools of a wiki, as its members and readers see them. One component, so every feature
 * that adds a tool under `/w/<id>/-/` adds its link here.
 */
export function SpaceTools(props: { space: WebSpace }) {
  const { wiki, role } = props.space;
  return (
    <nav aria-label="Wiki tools" class="tools">
      {canWrite(role) && <a href={newPageHref(wiki.id)}>New page</a>}
      <a href={toolHref(wiki.id, "pages")}>All pages</a>
      {/* A published wiki's readers get a docs site; its back office is the members'. */}
      {role && <a href={toolHref(wiki.id, "history")}>Recent changes</a>}
      {role && <a href={toolHref(wiki.id, "files")}>Files</a>}
      {role && <a href={toolHref(wiki.id, "export")}>Export</a>}
      {role && <a href={toolHref(wiki.id, "versions")}>Versions</a>}
      {canWrite(role) && <a href={toolHref(wiki.id, "import")}>Import</a>}
      <a href={toolHref(wiki.id, "connect")}>Connect</a>
      {canWrite(role) && <a href={toolHref(wiki.id, "usage")}>Usage</a>}
      {manages(role) && <a href={toolHref(wiki.id, "feedback")}>Feedback</a>}
      {manages(role) && <a href={toolHref(wiki.id, "audit")}>Audit log</a>}
      {manages(role) && <a href={toolHref(wiki.id, "people")}>People</a>}
      {manages(role) && <a href={toolHref(wiki.id, "settings")}>Settings</a>}
      {manages(role) && <a href={toolHref(wiki.id, "site")}>Site</a>}
    </nav>
  );
}

/**
 * The head of a published wiki as its readers see it: the owners' logo, site title and header
 * links, in their accent colour (space settings, `/w/<id>/-/site`). Nothing when none is set.
 */
function SiteHead(props: { wikiId: string; site: SiteLook }) {
  const { site } = props;
  if (!site.title && !site.logo && !site.links?.length && !site.accent) return null;
  // The accent is checked to be `#rrggbb` (`siteSchema`): safe inside the style sheet.
  const accent = site.accent
    ? `.site-head{border-bottom:3px solid ${site.accent}}.site-head a,.wiki-content a{color:${site.accent}}`
    : "";
  return (
    <div class="site-head">
      {accent && <style dangerouslySetInnerHTML={{ __html: accent }} />}
      <a href={spaceHref(props.wikiId)} class="site-title">
        {site.logo && <img src={site.logo} alt="" height={28} />}
        {site.title && <span>{site.title}</span>}
      </a>
      {site.links && site.links.length > 0 && (
        <nav aria-label="Site links">
          {site.links.map((link) => <a href={link.href}>{link.title}</a>)}
        </nav>
      )}
    </div>
  );
}

/**
 * A page that belongs to a wiki when `view` is given (the wiki's frame: breadcrumb, tools,
 * sidebar) and to the site otherwise, such as the connect page, which serves both.
 */
export function PageFrame(
  props: PageContext & { title: string; view?: SpaceView | undefined; children?: Child },
) {
  if (props.view) {
    return <WikiFrame {...props.view} title={props.title}>{props.children}</WikiFrame>;
  }
  return (
    <Layout title={props.title} account={props.account} csrfToken={props.csrfToken}>
      {props.children}
    </Layout>
  );
}

/** A moment as people read it, machine-readable in `datetime`. */
export function Time(props: { at: Date }) {
  const iso = props.at.toISOString();
  return <time datetime={iso}>{iso.slice(0, 16).replace("T", " ")} UTC</time>;
}

/** Who made a revision, as this visitor may see it: members see emails, readers names only. */
export function authorOf(
  row: {
    author_name: string | null;
    author_email: string | null;
    author_account_id: string | null;
  },
  member: boolean,
): string {
  if (!row.author_account_id) return "—";
  if (row.author_name) return row.author_name;
  return member && row.author_email ? row.author_email : "a member";
}

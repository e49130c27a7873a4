import { type Child, Fragment } from "hono/jsx";
import { Layout, type PageContext } from "../web/layout.tsx";
import type { WebSpace } from "../web/space_access.ts";
import { newPageHref, spaceHref, toolHref } from "./space_urls.ts";

/** What every page of a wiki is rendered with: the visitor and the wiki with their role. */
export type SpaceView = PageContext & { space: WebSpace };

/**
 * The frame of a wiki's pages: the page layout, then a bar with the wiki's name and the
 * folders of the current page, the wiki's search form and, for members, its tools. Scripts
 * named in `scripts` load from `/assets/` (progressive enhancement: every page works without).
 */
export function WikiFrame(
  props: SpaceView & {
    title: string;
    /** The page (or page path) the view is about: its folders follow the wiki's name. */
    path?: string;
    query?: string;
    scripts?: string[];
    children?: Child;
  },
) {
  const { wiki, role } = props.space;
  const folders = props.path ? props.path.split("/").slice(0, -1) : [];
  return (
    <Layout title={props.title} account={props.account} csrfToken={props.csrfToken}>
      <div class="wiki-bar">
        <p class="crumbs">
          <a href={spaceHref(wiki.id)}>{wiki.title}</a>
          {folders.map((name) => ` › ${name}`).join("")}
          {wiki.visibility === "private" && <span class="badge">Private</span>}
        </p>
        <form role="search" method="get" action={toolHref(wiki.id, "search")} class="wiki-search">
          <label for="wiki-search" class="sr-only">Search</label>
          <input id="wiki-search" type="search" name="q" value={props.query} />
          <button type="submit">Search</button>
        </form>
        <nav aria-label="Wiki tools" class="tools">
          {role && <a href={newPageHref(wiki.id)}>New page</a>}
          <a href={toolHref(wiki.id, "history")}>Recent changes</a>
          {role && <a href={toolHref(wiki.id, "import")}>Import</a>}
          <a href={toolHref(wiki.id, "connect")}>Connect</a>
          {role && <a href={toolHref(wiki.id, "usage")}>Usage</a>}
          {role && role !== "member" && <a href={toolHref(wiki.id, "audit")}>Audit log</a>}
          {role && role !== "member" && <a href={toolHref(wiki.id, "settings")}>Settings</a>}
        </nav>
      </div>
      {props.children}
      {props.scripts?.map((name) => (
        <Fragment key={name}>
          <script src={`/assets/${name}`} defer></script>
        </Fragment>
      ))}
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

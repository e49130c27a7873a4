import { canWrite } from "../access/role.ts";
import type { PageRow } from "../db/page_row.ts";
import type { HistoryRow } from "./store.ts";
import { actionHref, newPageHref, pageHref, toolHref } from "../kit/web/space_urls.ts";
import { PrevNext, TableOfContents } from "../kit/web/sidebar.tsx";
import { authorOf, type SpaceView, Time, WikiFrame } from "../kit/web/wiki_frame.tsx";
import { HelpfulForm } from "../ratings/helpful_form.tsx";
import { VersionSwitcher } from "../kit/web/version_switcher.tsx";

/**
 * A page as people read it: its rendered markdown (made safe by `renderMarkdown`), the tools
 * members have, and the pages that link here.
 */
export function PageView(
  props: SpaceView & {
    page: PageRow;
    html: string;
    backlinks: { path: string; title: string }[];
    /** Shown at the wiki's root: the page is its Home, with the index one click away. */
    home?: boolean;
    /** The space's versions ("latest" last) and its default: a switcher when it has any. */
    versions?: { versions: string[]; default_version: string } | undefined;
    /** A page the version switcher came from that the live pages do not hold. */
    missing?: string | undefined;
  },
) {
  const { wiki, role } = props.space;
  const { page } = props;
  return (
    <WikiFrame
      {...props}
      title={page.title}
      path={page.path}
      toc={<TableOfContents html={props.html} />}
      scripts={["docs_blocks.js", "copy.js"]}
    >
      {props.home && wiki.description && <p class="lead">{wiki.description}</p>}
      {props.home && (
        <p class="hint">
          <a href={toolHref(wiki.id, "pages")}>Index of all pages</a>
          {role && (
            <>
              {" · "}
              <a href={`${toolHref(wiki.id, "pages")}#wanted-heading`}>Wanted pages</a>
            </>
          )}
        </p>
      )}
      {props.versions && props.versions.versions.length > 1 && (
        <VersionSwitcher
          wikiId={wiki.id}
          versions={props.versions.versions.slice(0, -1)}
          defaultName={props.versions.default_version}
          current="latest"
          path={page.path}
          missing={props.missing}
        />
      )}
      <nav aria-label="Page tools" class="tools">
        {canWrite(role) && <a href={actionHref(wiki.id, "edit", page.path)}>Edit</a>}
        {role && <a href={actionHref(wiki.id, "history", page.path)}>History</a>}
        {canWrite(role) && <a href={actionHref(wiki.id, "rename", page.path)}>Rename</a>}
        {canWrite(role) && <a href={actionHref(wiki.id, "delete", page.path)}>Delete</a>}
        {(wiki.visibility === "public" || role) && (
          <a href={`${pageHref(wiki.id, page.path)}.md`}>
            Markdown
          </a>
        )}
      </nav>
      <article class="prose" dangerouslySetInnerHTML={{ __html: props.html }} />
      {props.nav && <PrevNext wikiId={wiki.id} nav={props.nav} path={page.path} />}
      <HelpfulForm wikiId={wiki.id} path={page.path} csrfToken={props.csrfToken} />
      {
        /* Readers of a published wiki see a docs page; the revision line and empty backlinks
         are the members' tools. */
      }
      {role && (
        <p class="hint page-meta">
          <code>{page.path}</code> · revision {page.revision} · updated{" "}
          <Time at={page.updated_at} />
        </p>
      )}
      {(role || props.backlinks.length > 0) && (
        <section aria-labelledby="wiki-backlinks" class="backlinks">
          <h2 id="wiki-backlinks">Backlinks</h2>
          {props.backlinks.length > 0
            ? (
              <ul>
                {props.backlinks.map((b) => (
                  <li>
                    <a href={pageHref(wiki.id, b.path)}>{b.title}</a>
                  </li>
                ))}
              </ul>
            )
            : <p class="hint">No other page links here yet.</p>}
        </section>
      )}
    </WikiFrame>
  );
}

/**
 * The not-found page of a wiki: what was asked for, close matches, a deleted page's last
 * revision, and for members one click to write it.
 */
export function MissingPageView(
  props: SpaceView & {
    path: string;
    suggestions: string[];
    deleted: HistoryRow | null;
  },
) {
  const { wiki, role } = props.space;
  return (
    <WikiFrame {...props} title="Page not found" path={props.path}>
      <p>
        There is no page <strong>{props.path}</strong> in this wiki{props.deleted && " any more"}.
      </p>
      {props.deleted && (
        <p>
          It was deleted <Time at={props.deleted.created_at} />
          {props.deleted.author_account_id && (
            <>{" by "}{authorOf(props.deleted, role !== null)}</>
          )}. <a href={actionHref(wiki.id, "history", props.deleted.path)}>See its history</a>
        </p>
      )}
      {props.suggestions.length > 0 && (
        <>
          <h2>Did you mean</h2>
          <ul>
            {props.suggestions.map((s) => (
              <li>
                <a href={pageHref(wiki.id, s)}>{s}</a>
              </li>
            ))}
          </ul>
        </>
      )}
      {canWrite(role)
        ? (
          <p>
            <a class="button" href={newPageHref(wiki.id, props.path)}>
              Create page “{props.path}”
            </a>
          </p>
        )
        : !props.account && (
          <p>
            <a href={`/signin?next=${encodeURIComponent(newPageHref(wiki.id, props.path))}`}>
              Sign in
            </a>{" "}
            to write it if you are a member of this wiki.
          </p>
        )}
    </WikiFrame>
  );
}

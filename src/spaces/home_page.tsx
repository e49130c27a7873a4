import { canWrite } from "../access/role.ts";
import type { TreeNode } from "../markdown/page_tree.ts";
import { newPageHref, pageHref } from "../kit/web/space_urls.ts";
import { type SpaceView, Time, WikiFrame } from "../kit/web/wiki_frame.tsx";

/** Folders open on the home page while the wiki has at most this many pages. */
const OPEN_TREE_BELOW = 60;

/**
 * A wiki's home: its description, the pages changed last, every page as a tree of folders
 * and, for members, the pages links ask for that nobody has written yet.
 */
export function WikiHomePage(
  props: SpaceView & {
    pageCount: number;
    recent: { path: string; title: string; updated_at: Date }[];
    tree: TreeNode[];
    /** True when the tree shows only the first pages by path. */
    treeTruncated: boolean;
    wanted: { target: string; links: number }[];
  },
) {
  const { wiki, role } = props.space;
  const open = props.pageCount <= OPEN_TREE_BELOW;
  return (
    <WikiFrame {...props} title={wiki.title}>
      {wiki.description && <p class="lead">{wiki.description}</p>}
      <p class="hint">
        {props.pageCount === 1 ? "1 page" : `${props.pageCount} pages`}
        {wiki.visibility === "public" ? " · public: anyone can read it" : " · private space"}
      </p>
      {props.pageCount === 0
        ? (
          <p>
            This wiki has no pages yet.{" "}
            {canWrite(role) && <a href={newPageHref(wiki.id, "Home")}>Write its first page</a>}
          </p>
        )
        : (
          <>
            <section aria-labelledby="recent-heading">
              <h2 id="recent-heading">Recently changed</h2>
              <ul>
                {props.recent.map((p) => (
                  <li>
                    <a href={pageHref(wiki.id, p.path)}>{p.title}</a>{" "}
                    <span class="hint">
                      <Time at={p.updated_at} />
                    </span>
                  </li>
                ))}
              </ul>
            </section>
            <section aria-labelledby="pages-heading">
              <h2 id="pages-heading">All pages</h2>
              <PageTree wikiId={wiki.id} nodes={props.tree} open={open} />
              {props.treeTruncated && (
                <p class="hint">Only the first pages by path are listed: search for the others.</p>
              )}
            </section>
          </>
        )}
      {role && props.wanted.length > 0 && (
        <section aria-labelledby="wanted-heading">
          <h2 id="wanted-heading">Wanted pages</h2>
          <p class="hint">Pages that links point at but nobody has written yet.</p>
          <ul>
            {props.wanted.map((w) => (
              <li>
                <a class="missing" href={newPageHref(wiki.id, w.target)}>{w.target}</a>{" "}
                <span class="hint">
                  ({w.links === 1 ? "1 link" : `${w.links} links`})
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </WikiFrame>
  );
}

/** Pages nested by folder: each folder a disclosure (`<details>`), usable without script. */
export function PageTree(props: { wikiId: string; nodes: TreeNode[]; open: boolean }) {
  return (
    <ul class="tree">
      {props.nodes.map((node) =>
        node.children.length === 0
          ? (
            <li>
              <a href={pageHref(props.wikiId, node.path)}>{node.title ?? node.name}</a>
            </li>
          )
          : (
            <li>
              <details open={props.open}>
                <summary>{node.name}/</summary>
                {node.title !== null && (
                  <p class="folder-page">
                    <a href={pageHref(props.wikiId, node.path)}>{node.title}</a>
                  </p>
                )}
                <PageTree wikiId={props.wikiId} nodes={node.children} open={props.open} />
              </details>
            </li>
          )
      )}
    </ul>
  );
}

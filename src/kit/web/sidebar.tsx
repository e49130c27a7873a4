import { pathKey } from "../../markdown/paths.ts";
import { neighbours, type SpaceNav, trail, type TreeNode } from "../../markdown/page_tree.ts";
import { pageHref, spaceHref, toolHref } from "./space_urls.ts";

/** Folders of the sidebar start open while the wiki has at most this many pages. */
const OPEN_TREE_BELOW = 60;

/**
 * The sidebar of every page of a wiki: its pages as a tree of folders (`<details>`, usable
 * without script), the current page marked (`aria-current`) and its folders open, and the
 * index one click away. On a phone it follows the page (see the layout's CSS).
 */
export function Sidebar(
  props: { wikiId: string; nav: SpaceNav; current?: string | undefined; member?: boolean },
) {
  const open = props.nav.pageCount <= OPEN_TREE_BELOW;
  const current = props.current ? pathKey(props.current) : null;
  return (
    <nav aria-label="Pages" class="sidebar" id="pages">
      <details open>
        <summary>Pages</summary>
        {props.nav.pageCount === 0
          ? <p class="hint">No pages yet.</p>
          : <NavTree wikiId={props.wikiId} nodes={props.nav.tree} current={current} open={open} />}
        <p class="hint">
          <a href={toolHref(props.wikiId, "pages")}>All pages</a>
          {props.member && (
            <>
              {" · "}
              <a href={toolHref(props.wikiId, "order")}>Order</a>
            </>
          )}
          {props.nav.truncated && " (the tree lists the first pages only)"}
        </p>
        <p class="hint shortcuts">
          <a href="/shortcuts">Keys</a>: <kbd>/</kbd> search · <kbd>?</kbd> all keys
          {props.member && (
            <>
              {" · "}
              <kbd>Ctrl</kbd>+<kbd>S</kbd> save (in the editor)
            </>
          )}
        </p>
      </details>
    </nav>
  );
}

/** Whether `node` is `current` or holds it. */
function holds(node: TreeNode, current: string | null): boolean {
  if (current === null) return false;
  const key = pathKey(node.path);
  return current === key || current.startsWith(`${key}/`);
}

function NavTree(
  props: { wikiId: string; nodes: TreeNode[]; current: string | null; open: boolean },
) {
  const link = (node: TreeNode) => (
    <a
      href={pageHref(props.wikiId, node.path)}
      aria-current={props.current === pathKey(node.path) ? "page" : undefined}
    >
      {node.title ?? node.name}
    </a>
  );
  return (
    <ul class="tree">
      {props.nodes.map((node) =>
        node.children.length === 0
          ? (
            <li>
              {link(node)}
            </li>
          )
          : (
            <li>
              <details open={props.open || holds(node, props.current)}>
                <summary>{node.title === null ? node.name : link(node)}</summary>
                <NavTree {...props} nodes={node.children} />
              </details>
            </li>
          )
      )}
    </ul>
  );
}

/** Links to the pages before and after this one in the sidebar's order. */
export function PrevNext(props: { wikiId: string; nav: SpaceNav; path: string }) {
  const { previous, next } = neighbours(props.nav.tree, props.path);
  if (!previous && !next) return null;
  return (
    <nav aria-label="Previous and next" class="prev-next">
      {previous
        ? (
          <a href={pageHref(props.wikiId, previous.path)} rel="prev">
            <span class="hint">Previous</span> {previous.title}
          </a>
        )
        : <span />}
      {next && (
        <a href={pageHref(props.wikiId, next.path)} rel="next" class="next">
          <span class="hint">Next</span> {next.title}
        </a>
      )}
    </nav>
  );
}

/** Pages at least this long in sections get a table of contents. */
const TOC_MIN_HEADINGS = 3;

/** The level-2 and level-3 headings of rendered page HTML, with their anchors. */
export function headingsOf(html: string): { level: 2 | 3; id: string; text: string }[] {
  const out: { level: 2 | 3; id: string; text: string }[] = [];
  for (const m of html.matchAll(/<h([23]) id="([^"]+)">([\s\S]*?)<\/h\1>/g)) {
    const text = m[3]!.replace(/<[^>]*>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&").trim();
    out.push({ level: m[1] === "2" ? 2 : 3, id: m[2]!, text });
  }
  return out;
}

/** "On this page": links to the sections of a long page (none for a short one). */
export function TableOfContents(props: { html: string }) {
  const headings = headingsOf(props.html);
  if (headings.length < TOC_MIN_HEADINGS) return null;
  return (
    <nav aria-label="On this page" class="toc">
      <details open>
        <summary>On this page</summary>
        <ul>
          {headings.map((h) => (
            <li class={h.level === 3 ? "sub" : undefined}>
              <a href={`#${h.id}`}>{h.text}</a>
            </li>
          ))}
        </ul>
      </details>
    </nav>
  );
}

/**
 * The breadcrumb of a page: the wiki, then each folder of the navigation that holds it, as a
 * link to the folder's landing page when it has one (else to the folder in the index).
 */
export function Crumbs(
  props: { wikiId: string; wikiTitle: string; path?: string | undefined; nav?: SpaceNav },
) {
  const folders = props.path && props.nav ? trail(props.nav.tree, props.path) : [];
  return (
    <nav aria-label="Breadcrumb" class="crumbs">
      <a href={spaceHref(props.wikiId)}>{props.wikiTitle}</a>
      {folders.map((node) => {
        const href = node.title !== null
          ? pageHref(props.wikiId, node.path)
          : `${toolHref(props.wikiId, "pages")}#${encodeURIComponent(node.path)}`;
        return (
          <span>
            {" › "}
            <a href={href}>{node.title ?? node.name}</a>
          </span>
        );
      })}
    </nav>
  );
}

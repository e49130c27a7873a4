import { CsrfField } from "../kit/web/form_kit.tsx";
import type { TreeNode } from "../markdown/page_tree.ts";
import { toolHref } from "../kit/web/space_urls.ts";
import { type SpaceView, WikiFrame } from "../kit/web/wiki_frame.tsx";

/**
 * The order of a wiki's pages, for its owners: the tree as readers see it, each page and
 * folder with buttons to move it up or down among its siblings (plain forms: they work with
 * the keyboard and without script). The sidebar, previous/next, llms.txt, list_pages and the
 * export follow the order saved here.
 */
export function OrderPage(props: SpaceView & { moved?: string | undefined }) {
  const wiki = props.space.wiki;
  const tree = props.nav?.tree ?? [];
  return (
    <WikiFrame {...props} title="Order of pages">
      <p class="hint">
        Move pages and folders up or down; readers see them in this order in the sidebar, in
        previous/next links, in llms.txt and in the export. A new page goes after its siblings.
      </p>
      {props.moved && <p role="status">Moved “{props.moved}”.</p>}
      {tree.length === 0
        ? <p class="hint">No pages yet.</p>
        : <OrderList wikiId={wiki.id} nodes={tree} at={[]} csrfToken={props.csrfToken} />}
    </WikiFrame>
  );
}

function OrderList(
  props: { wikiId: string; nodes: TreeNode[]; at: number[]; csrfToken: string },
) {
  return (
    <ol class="order">
      {props.nodes.map((node, i) => {
        const at = [...props.at, i];
        const label = node.title ?? node.name;
        return (
          <li>
            <form method="post" action={toolHref(props.wikiId, "order")} class="order-item">
              <CsrfField token={props.csrfToken} />
              <input type="hidden" name="at" value={at.join(".")} />
              <span>{node.children.length > 0 ? <strong>{label}</strong> : label}</span>{" "}
              <button
                type="submit"
                name="move"
                value="up"
                disabled={i === 0}
                aria-label={`Move ${label} up`}
              >
                ↑
              </button>
              <button
                type="submit"
                name="move"
                value="down"
                disabled={i === props.nodes.length - 1}
                aria-label={`Move ${label} down`}
              >
                ↓
              </button>
            </form>
            {node.children.length > 0 && <OrderList {...props} nodes={node.children} at={at} />}
          </li>
        );
      })}
    </ol>
  );
}

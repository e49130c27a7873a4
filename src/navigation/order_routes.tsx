import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { formText, openSpace } from "../kit/web/space_context.ts";
import { spaceNavOf } from "../kit/web/space_nav.ts";
import { toolHref } from "../kit/web/space_urls.ts";
import { OrderPage } from "./order_page.tsx";
import { moveItem, parseAt, treeToItems } from "./reorder.ts";
import { saveNavDoc } from "./space_nav_doc.ts";

/** The order editor of a wiki (owners and admins): `GET/POST /w/<id>/-/order`. */
export function orderRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get("/w/:id/-/order", async (c) => {
    const view = await openSpace(deps, c, "admin");
    return c.html(<OrderPage {...view} moved={c.req.query("moved")} />);
  });

  app.post("/w/:id/-/order", async (c) => {
    const view = await openSpace(deps, c, "admin");
    const wikiId = view.space.wiki.id;
    const form = await c.req.parseBody();
    const at = parseAt(formText(form.at));
    const move = formText(form.move);
    if (!at || (move !== "up" && move !== "down")) {
      throw new AppError("bad_request", "Say which item to move (at) and where (up or down)");
    }
    const nav = await spaceNavOf(c, wikiId);
    const items = moveItem(treeToItems(nav.tree, nav.titles), at, move);
    if (!items) throw new AppError("bad_request", "That item cannot move further that way");
    await saveNavDoc(deps.db, wikiId, { ...nav.doc, items, edited: true });
    let node = { children: nav.tree } as {
      children: typeof nav.tree;
      title?: string | null;
      name?: string;
    };
    for (const index of at) node = node.children[index] ?? node;
    const label = node.title ?? node.name ?? "";
    return c.redirect(toolHref(wikiId, "order", { moved: label }), 303);
  });

  return app;
}

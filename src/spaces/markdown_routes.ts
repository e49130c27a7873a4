import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { loadWebSpace } from "../kit/web/space_access.ts";
import { pageMarkdown } from "../pages/page_markdown.ts";

/**
 * `GET /w/<id>/<path>.md` for the wikis `llmsRoutes` leaves alone (private, or unknown): the
 * page's markdown for a signed-in member, by the same access policy as the page itself. Anyone
 * else gets the wiki's 404, the same as for an id that does not exist. Mount before
 * `viewRoutes`, whose page route would take the path as a page named `….md`.
 */
export function markdownRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.get("/w/:id/:path{.+\\.md}", async (c) => {
    const { wiki } = await loadWebSpace(deps, c, c.req.param("id"), "read");
    // Only this browser may keep it, and it asks again (ETag) before each use.
    return await pageMarkdown(deps, c.req.raw, wiki.id, "private, no-cache");
  });
  return app;
}

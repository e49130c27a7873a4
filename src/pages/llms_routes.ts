import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { ANONYMOUS, authorize } from "../access/access_policy.ts";
import { listPages } from "./list_pages.ts";
import { pageMarkdown } from "./page_markdown.ts";
import { listPublicWikis } from "../wikis/list_public_wikis.ts";
import { wikiUrl } from "../lib/urls.ts";
import { rateLimit } from "../limits/rate_limit.ts";

/** Pages listed in one wiki's llms.txt at most. */
const LLMS_PAGES = 2_000;

/**
 * Plain-text entry points for agents without MCP (the llms.txt convention): `/llms.txt` lists
 * the public wikis, `/w/<id>/llms.txt` a wiki's pages, and `/w/<id>/<path>.md` is a page's
 * markdown as written.
 */
export function llmsRoutes(deps: Deps): Hono {
  const app = new Hono();
  const text = (body: string) =>
    new Response(body, {
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "public, max-age=300",
      },
    });
  const base = deps.config.baseUrl;

  // Machine reads: they spend the API's budget, wherever they live (also under `/w/`).
  const budget = rateLimit(deps, "api");
  app.get("/llms.txt", budget, async () => {
    const { wikis } = await listPublicWikis(deps, { limit: 200 });
    return text([
      "# Knowledge wiki",
      "",
      "> Public wikis, readable as markdown. Assistants can also connect over MCP at " +
      `${base}/mcp/hub/ (all public wikis) or ${base}/mcp/w/<id>/ (one wiki); programs can use ${base}/api/v1/.`,
      "",
      "## Wikis",
      "",
      ...wikis.map((w) =>
        `- [${w.title}](${wikiUrl(base, w.id)}/llms.txt): ${w.description || `${w.pages} pages`}`
      ),
      "",
    ].join("\n"));
  });

  app.get("/w/:id/llms.txt", budget, async (c) => {
    const { wiki } = await authorize(deps, ANONYMOUS, c.req.param("id"), "read", "web");
    const id = wiki.id;
    const { pages } = await listPages(deps, id, { limit: LLMS_PAGES });
    return text([
      `# ${wiki.title}`,
      "",
      ...(wiki.description ? [`> ${wiki.description}`, ""] : []),
      ...(wiki.instructions ? [wiki.instructions, ""] : []),
      `MCP: ${base}/mcp/w/${id}/`,
      "",
      "## Pages",
      "",
      ...pages.map((p) => `- [${p.title}](${p.url}.md)`),
      "",
    ].join("\n"));
  });

  // A public wiki's page as markdown. Any other wiki (private, or no such id) is left to the
  // web app's `markdownRoutes` (src/spaces/), which sees the session: members get their private
  // pages, everyone else the same 404 as for an unknown id.
  app.get("/w/:id/:path{.+\\.md}", budget, async (c, next) => {
    const access = await authorize(deps, ANONYMOUS, c.req.param("id"), "read", "web")
      .catch((error) => {
        if (error instanceof AppError && error.code === "wiki_not_found") return null;
        throw error;
      });
    if (!access) return await next();
    return await pageMarkdown(deps, c.req.raw, access.wiki.id);
  });
  return app;
}

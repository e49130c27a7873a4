import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { decodeUriComponent } from "../lib/decode_uri.ts";
import { ANONYMOUS, authorize } from "../access/access_policy.ts";
import { listPages } from "../pages/list_pages.ts";
import { docsText } from "../markdown/docs_blocks.ts";
import { resolvePageRef } from "../pages/read_page.ts";
import { listPublicWikis } from "./list_public_wikis.ts";
import { wikiUrl } from "./urls.ts";
import { rateLimit } from "../limits/rate_limit.ts";
import { matchesIfNoneMatch } from "../lib/etag.ts";

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

/**
 * The markdown of the page a `/w/<id>/<path>.md` URL names, as written (with `cacheControl`
 * when given: a private page's says only this browser may keep it), or 304 when the request's
 * `If-None-Match` names the page at its current revision.
 * Hono has decoded the path parameter already (and leaves a malformed one as it was): the raw
 * segment is decoded here once, so `%25` means `%` and `%E0%A4%A` is refused.
 */
export async function pageMarkdown(
  deps: Pick<Deps, "db">,
  request: Request,
  wikiId: string,
  cacheControl?: string,
): Promise<Response> {
  const raw = new URL(request.url).pathname.split("/").slice(3).join("/");
  const path = decodeUriComponent(raw)?.replace(/\.md$/, "");
  if (path === undefined) {
    throw new AppError("bad_request", `The page path "${raw}" is not valid percent-encoding`);
  }
  const page = await resolvePageRef(deps.db, wikiId, path);
  const etag = `"${page.id}-${page.revision}"`;
  const headers = new Headers({ "Content-Type": "text/markdown; charset=utf-8", ETag: etag });
  if (cacheControl) headers.set("Cache-Control", cacheControl);
  if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers });
  }
  // Docs tools' blocks (callouts, tabs, JSX) as plain markdown for the agents that read this.
  return new Response(docsText(page.markdown), { headers });
}

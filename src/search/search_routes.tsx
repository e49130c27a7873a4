import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { openSpace } from "../kit/web/space_context.ts";
import { relativeUrl } from "../kit/web/space_urls.ts";
import { recordSearch, WEB_CLIENT } from "../usage/record_usage.ts";
import { searchWikis } from "./search_wikis.ts";
import { SearchPage } from "./search_page.tsx";

/** `GET /w/<id>/-/search?q=…`: a wiki's search page, with its results. */
export function searchRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.get("/w/:id/-/search", async (c) => {
    const view = await openSpace(deps, c, "read");
    const query = c.req.query("q")?.trim() ?? "";
    if (!query) return c.html(<SearchPage {...view} query="" results={null} nextCursor={null} />);
    try {
      const cursor = c.req.query("cursor") || undefined;
      // Counted as MCP and REST searches are (the type-ahead `suggest` below is not: it would
      // list every prefix typed).
      const wikis = [view.space.wiki.id];
      const found = await searchWikis(deps, wikis, { query, limit: 20, cursor });
      await recordSearch(deps, { wikis, query, cursor, results: found.results, ...WEB_CLIENT });
      const results = found.results.map((r) => ({
        ...r,
        href: relativeUrl(r.url, deps.config.baseUrl),
      }));
      return c.html(
        <SearchPage {...view} query={query} results={results} nextCursor={found.next_cursor} />,
      );
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 400) throw error;
      return c.html(
        <SearchPage
          {...view}
          query={query}
          results={null}
          nextCursor={null}
          error={error.detail}
        />,
        400,
      );
    }
  });
  return app;
}

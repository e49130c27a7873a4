import { Hono } from "hono";
import { reachableSpaces } from "../access/access_policy.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { searchWikis } from "../search/search_wikis.ts";
import { recordSearch, WEB_CLIENT } from "../usage/record_usage.ts";
import { requireAccount } from "../kit/web/require_account.ts";
import { relativeUrl } from "../kit/web/space_urls.ts";
import { suggestSections } from "../spaces/suggest_sections.ts";
import { SearchAllPage } from "./search_all_page.tsx";

/**
 * Search across every space the signed-in person reaches (their own and their teams'), by the
 * one access policy (`reachableSpaces`): `GET /account/search?q=` renders the results, each
 * labelled with its space, and `GET /account/search/suggest?q=` gives sections as you type.
 * Public wikis of others are not searched here: each has its own search.
 */
export function searchAllRoutes(deps: Deps): Hono {
  const app = new Hono();

  const reachableTitles = async (accountId: string) =>
    new Map(
      (await reachableSpaces(deps.db, { kind: "session", accountId }))
        .map((s) => [s.id, s.title]),
    );

  app.get("/account/search", async (c) => {
    const account = requireAccount(c);
    const spaces = await reachableTitles(account.id);
    const query = c.req.query("q")?.trim() ?? "";
    const page = {
      account,
      csrfToken: c.get("csrfToken"),
      query,
      spaceCount: spaces.size,
      results: null,
      nextCursor: null,
    };
    if (!query || spaces.size === 0) return c.html(<SearchAllPage {...page} />);
    try {
      const cursor = c.req.query("cursor") || undefined;
      // Counted in each space where it found pages, as an MCP search across spaces is (the
      // type-ahead `suggest` below is not: it would list every prefix typed).
      const wikis = [...spaces.keys()];
      const found = await searchWikis(deps, wikis, { query, limit: 20, cursor });
      await recordSearch(deps, { wikis, query, cursor, results: found.results, ...WEB_CLIENT });
      const results = found.results.map((r) => ({
        ...r,
        href: relativeUrl(r.url, deps.config.baseUrl),
        space: spaces.get(r.wiki) ?? r.wiki,
      }));
      return c.html(
        <SearchAllPage {...page} results={results} nextCursor={found.next_cursor} />,
      );
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 400) throw error;
      return c.html(<SearchAllPage {...page} error={error.detail} />, 400);
    }
  });

  app.get("/account/search/suggest", async (c) => {
    const account = requireAccount(c);
    const query = (c.req.query("q") ?? "").trim().slice(0, 200);
    const spaces = await reachableTitles(account.id);
    if (query.length < 2 || spaces.size === 0) return c.json({ results: [] });
    const sections = await suggestSections(deps, [...spaces.keys()], query);
    return c.json({
      results: sections.map(({ wiki, ...s }) => ({ ...s, space: spaces.get(wiki) ?? wiki })),
    });
  });

  return app;
}

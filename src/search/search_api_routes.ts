import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Deps } from "../deps.ts";
import { json, problems, wikiIdParam } from "../kit/rest/schemas.ts";
import { type ReadScope, scopeParts } from "../kit/rest/read_scope.ts";
import { readingDeps } from "../db/replicas.ts";
import { versionParam } from "../versions/versions.ts";
import { recordSearch } from "../usage/record_usage.ts";
import { searchOutputSchema, searchWikis } from "./search_wikis.ts";

/** Registers hybrid search under the scope's base (`…/search`). */
export function registerSearchRoutes(app: OpenAPIHono, deps: Deps, scope: ReadScope): void {
  const { base, tag, resolve } = scope;
  const { op, security, auth } = scopeParts(scope);
  app.openapi(
    createRoute({
      method: "get",
      path: `${base}/search`,
      operationId: op("Search"),
      tags: [tag],
      summary: "Hybrid search: pages with their best passage",
      security,
      request: {
        params: wikiIdParam,
        query: z.object({
          q: z.string().min(1).max(1000).openapi({
            description: "The query",
            example: "connect cursor",
          }),
          limit: z.coerce.number().int().min(1).max(50).default(10),
          cursor: z.string().max(200).optional(),
          version: versionParam,
        }),
      },
      responses: { 200: json(searchOutputSchema, "Ranked pages"), ...problems(400, ...auth, 404) },
    }),
    async (c) => {
      const wiki = await resolve(c, c.req.valid("param").id);
      const { q, limit, cursor, version } = c.req.valid("query");
      const reading = await readingDeps(deps, c.get("rateLimit")?.key);
      const out = await searchWikis(reading, [wiki], { query: q, limit, cursor, version });
      const client = c.req.header("user-agent");
      await recordSearch(deps, {
        wikis: [wiki],
        query: q,
        cursor,
        results: out.results,
        via: "rest",
        client,
      });
      return c.json(out, 200);
    },
  );
}

import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { ANONYMOUS, authorize } from "../access/access_policy.ts";
import type { Deps } from "../deps.ts";
import { json, problems, wikiIdParam } from "../kit/rest/schemas.ts";
import {
  describePublicWiki,
  listPublicWikis,
  publicWikiListSchema,
  publicWikiSchema,
} from "./list_public_wikis.ts";

/** `GET /public/wikis` and `GET /public/wikis/{id}`: the public wikis, without credentials. */
export function registerPublicWikiRoutes(app: OpenAPIHono, deps: Deps): void {
  app.openapi(
    createRoute({
      method: "get",
      path: "/public/wikis",
      operationId: "listPublicWikis",
      tags: ["Public wikis"],
      summary: "The public wikis",
      request: {
        query: z.object({
          query: z.string().max(200).optional(),
          cursor: z.string().max(500).optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
        }),
      },
      responses: { 200: json(publicWikiListSchema, "A page of public wikis"), ...problems(400) },
    }),
    async (c) => c.json(await listPublicWikis(deps, c.req.valid("query")), 200),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/public/wikis/{id}",
      operationId: "getPublicWiki",
      tags: ["Public wikis"],
      summary: "One public wiki",
      request: { params: wikiIdParam },
      responses: {
        200: json(publicWikiSchema.extend({ instructions: z.string().nullable() }), "The wiki"),
        ...problems(404),
      },
    }),
    async (c) => {
      const { wiki } = await authorize(deps, ANONYMOUS, c.req.valid("param").id, "read", "rest");
      return c.json(await describePublicWiki(deps, wiki), 200);
    },
  );
}

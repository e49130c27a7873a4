import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { auditSpaceRequests } from "../audit/audit_hooks.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { ANONYMOUS, authorize } from "../access/access_policy.ts";
import {
  describePublicWiki,
  listPublicWikis,
  publicWikiListSchema,
  publicWikiSchema,
} from "../wikis/list_public_wikis.ts";
import { requireAccountToken } from "./api_auth.ts";
import { apiReferencePage } from "./reference_page.ts";
import { registerReadRoutes, requireJson } from "./read_routes.ts";
import { json, problems, wikiIdParam } from "./schemas.ts";
import { registerSpaceRoutes } from "./space_routes.ts";
import { registerSyncRoutes } from "../sync/sync_api_routes.ts";
import { registerFeedbackApi } from "../feedback/feedback_api.ts";

/** Bodies larger than this are refused (imports: `IMPORT_LIMIT`). */
const BODY_LIMIT = 4 * 1024 * 1024;
const IMPORT_LIMIT = 100 * 1024 * 1024;

/**
 * REST `/api/v1`: public wiki reads without credentials, spaces with an account token. Every
 * route is defined with zod schemas that both validate it and describe it in the OpenAPI 3.1
 * document at `/api/v1/openapi.json` (human-readable at `/api/v1/docs`).
 */
export function apiRoutes(deps: Deps): OpenAPIHono {
  const app = new OpenAPIHono({
    defaultHook: (result) => {
      if (result.success) return;
      const issue = result.error.issues[0]!;
      throw new AppError(
        "bad_request",
        `${result.target} "${issue.path.join(".")}": ${issue.message}`,
        {
          errors: result.error.issues.map((i) => ({ field: i.path.join("."), message: i.message })),
        },
      );
    },
  });
  app.use("*", async (c, next) => {
    const limit = c.req.path.endsWith("/import") ? IMPORT_LIMIT : BODY_LIMIT;
    return await bodyLimit({
      maxSize: limit,
      onError: () => {
        throw new AppError("payload_too_large", `The body is over ${limit} bytes`);
      },
    })(c, next);
  });
  app.use("*", async (c, next) => {
    if (c.req.method === "POST" && /\/(ask|reports|proposals)$/.test(c.req.path)) requireJson(c);
    await next();
  });

  app.openapi(
    createRoute({
      method: "get",
      path: "/public/wikis",
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

  registerReadRoutes(app, deps, {
    base: "/public/wikis/{id}",
    tag: "Public wikis",
    resolve: async (_c, id) => (await authorize(deps, ANONYMOUS, id, "read", "rest")).wiki.id,
    secured: false,
  });

  app.use("/spaces", requireAccountToken(deps));
  app.use("/spaces/*", requireAccountToken(deps), auditSpaceRequests(deps));
  registerSpaceRoutes(app, deps);
  registerSyncRoutes(app, deps);
  registerFeedbackApi(app, deps);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "An account token (wk_acct_…); space tokens work on MCP only",
  });
  app.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Knowledge wiki REST API",
      version: "1.0.0",
      description:
        "Public wikis without credentials; your spaces with an account token. Errors are " +
        "application/problem+json with a stable `code` and the request id.",
    },
    servers: [{ url: `${deps.config.baseUrl}/api/v1` }],
  });
  app.get("/docs", async (c) => {
    const spec = await (await app.request("/openapi.json")).json();
    return c.html(apiReferencePage(spec));
  });
  return app;
}

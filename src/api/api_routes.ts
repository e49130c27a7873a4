import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
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
import { completeDocument } from "./openapi_document.ts";
import { ApiReferencePage } from "./reference_page.tsx";
import { pageHeaders } from "../web/page_headers.ts";
import { rateLimit } from "../limits/rate_limit.ts";
import { registerReadRoutes } from "./read_routes.ts";
import { restCors } from "./rest_edges.ts";
import { json, problems, wikiIdParam } from "./schemas.ts";
import { registerSpaceRoutes } from "./space_routes.ts";
import { registerSyncRoutes } from "../sync/sync_api_routes.ts";
import { registerFeedbackApi } from "../feedback/feedback_api.ts";
import { registerAttachmentApi } from "../attachments/attachment_api.ts";

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
  // The REST budget: per account token, else per IP. Body limits, timeouts and JSON
  // requirements are declared on each route (`middleware` of its `createRoute`).
  // CORS first: a preflight is answered before the budget and the token are asked for.
  app.use("*", restCors(), rateLimit(deps, "api"));

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

  registerReadRoutes(app, deps, {
    base: "/public/wikis/{id}",
    tag: "Public wikis",
    resolve: async (_c, id) => (await authorize(deps, ANONYMOUS, id, "read", "rest")).wiki.id,
    secured: false,
    operationPrefix: "public",
  });

  app.use("/spaces", requireAccountToken(deps));
  app.use("/spaces/*", requireAccountToken(deps), auditSpaceRequests(deps));
  registerSpaceRoutes(app, deps);
  registerSyncRoutes(app, deps);
  registerFeedbackApi(app, deps);
  registerAttachmentApi(app, deps);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "An account token (wk_acct_…); space tokens work on MCP only",
  });
  // Built once, on first request: nothing in it changes while the process runs.
  let built: ReturnType<typeof completeDocument> | undefined;
  let reference: string | undefined;
  const document = () =>
    built ??= completeDocument(app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "Knowledge wiki REST API",
        version: "1.0.0",
        // The project declares no licence yet: say so (npm's word for it) rather than guess one.
        license: { name: "UNLICENSED" },
        description:
          "Public wikis without credentials; your spaces with an account token. Errors are " +
          "application/problem+json with a stable `code` and the request id. Every response " +
          "carries the request budget (`RateLimit`, `RateLimit-Policy`); a 429 says when to retry.",
      },
      servers: [{ url: `${deps.config.baseUrl}/api/v1` }],
    }));
  app.get("/openapi.json", (c) => c.json(document()));
  // The page reads the document as JSON does (plain data, no generator types). Its headers are
  // the web app's: no framing, and a CSP with scripts from our own origin only, never inline.
  app.get(
    "/docs",
    pageHeaders(),
    async (c) =>
      c.html(
        reference ??= await ApiReferencePage({ spec: JSON.parse(JSON.stringify(document())) })
          .toString(),
      ),
  );
  return app;
}

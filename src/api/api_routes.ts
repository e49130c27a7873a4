import { OpenAPIHono } from "@hono/zod-openapi";
import { auditSpaceRequests } from "../audit/audit_hooks.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { ANONYMOUS, authorize } from "../access/access_policy.ts";
import { registerPublicWikiRoutes } from "../wikis/wiki_api_routes.ts";
import { requireAccountToken } from "./api_auth.ts";
import { serveDocument } from "./serve_document.ts";
import { rateLimit } from "../limits/rate_limit.ts";
import { readYourWrites } from "../http/read_your_writes.ts";
import { registerPageRoutes } from "../pages/page_api_routes.ts";
import { registerSearchRoutes } from "../search/search_api_routes.ts";
import { registerAskRoutes } from "../ask/ask_api_routes.ts";
import type { ReadScope } from "../kit/rest/read_scope.ts";
import { auditedSpace } from "../audit/record_audit.ts";
import { registerSpaceRoutes } from "../spaces/space_api_routes.ts";
import { registerSyncRoutes } from "../sync/sync_api_routes.ts";
import { registerFeedbackApi } from "../feedback/feedback_api_routes.ts";
import { registerVersionRoutes } from "../versions/version_api_routes.ts";
import { registerAttachmentApi } from "../attachments/attachment_api_routes.ts";
import { restCors } from "../kit/rest/rest_edges.ts";

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
  app.use("*", restCors(), rateLimit(deps, "api"), readYourWrites(deps));

  registerPublicWikiRoutes(app, deps);
  readRoutes(app, deps, {
    base: "/public/wikis/{id}",
    tag: "Public wikis",
    resolve: async (_c, id) => (await authorize(deps, ANONYMOUS, id, "read", "rest")).wiki.id,
    secured: false,
    operationPrefix: "public",
  });

  app.use("/spaces", requireAccountToken(deps));
  app.use("/spaces/*", requireAccountToken(deps), auditSpaceRequests(deps));
  registerSpaceRoutes(app, deps);
  readRoutes(app, deps, {
    base: "/spaces/{id}",
    tag: "Spaces",
    resolve: async (c, id) =>
      auditedSpace(c, (await authorize(deps, c.get("credential"), id, "read", "rest")).wiki.id),
    secured: true,
    operationPrefix: "space",
  });
  registerSyncRoutes(app, deps);
  registerVersionRoutes(app, deps);
  registerFeedbackApi(app, deps);
  registerAttachmentApi(app, deps);

  serveDocument(app, deps);
  return app;
}

/** The reads one family of wikis offers (public wikis, the caller's spaces), feature by feature. */
function readRoutes(app: OpenAPIHono, deps: Deps, scope: ReadScope): void {
  registerPageRoutes(app, deps, scope);
  registerSearchRoutes(app, deps, scope);
  registerAskRoutes(app, deps, scope);
}

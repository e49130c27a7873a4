import { Hono } from "hono";
import type { Deps } from "./deps.ts";
import { AppError } from "./errors.ts";
import { healthRoutes } from "./http/health_routes.ts";
import { internalError, problemResponse } from "./http/problem.ts";
import { requestId } from "./http/request_id.ts";
import { mcpRoutes } from "./mcp/mcp_routes.ts";
import { serverCardRoutes } from "./mcp/server_card.ts";
import { publicWikiRoutes } from "./wikis/public_routes.ts";

/** Builds the whole HTTP application from its dependencies; nothing here listens. */
export function createApp(deps: Deps): Hono {
  const app = new Hono();
  app.use(requestId());
  app.route("/", healthRoutes(deps));
  app.route("/api/v1/public", publicWikiRoutes(deps));
  app.route("/", mcpRoutes(deps));
  app.route("/", serverCardRoutes(deps));
  app.notFound((c) =>
    problemResponse(c, new AppError("not_found", `No route for ${c.req.method} ${c.req.path}`))
  );
  app.onError((error, c) => {
    if (error instanceof AppError) return problemResponse(c, error);
    deps.log.error("unhandled error", {
      request_id: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
      error: error instanceof Error ? error.stack ?? error.message : String(error),
    });
    return problemResponse(c, internalError());
  });
  return app;
}

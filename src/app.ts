import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { Deps } from "./deps.ts";
import { AppError } from "./errors.ts";
import { apiRoutes } from "./api/api_routes.ts";
import { healthRoutes } from "./http/health_routes.ts";
import { internalError, problemResponse } from "./http/problem.ts";
import { accessLog, securityHeaders } from "./http/access_log.ts";
import { requestId } from "./http/request_id.ts";
import { requestLimits } from "./http/request_limits.ts";
import { requestTimeout } from "./http/request_timeout.ts";
import { isDatabaseUnavailable } from "./db/db.ts";
import { rateLimit, webBudget } from "./limits/rate_limit.ts";
import { liveSessionId } from "./sessions/sessions.ts";
import { ownBodyLimit } from "./http/body_limit.ts";
import { mcpCors, mcpRoutes } from "./mcp/mcp_routes.ts";
import { mcpTooManyRequests } from "./mcp/too_many_requests.ts";
import { serverCardRoutes } from "./mcp/server_card.ts";
import { serverCardsRoutes } from "./mcp/server_cards.ts";
import { type OAuthOptions, oauthRoutes } from "./oauth/oauth_routes.ts";
import { llmsRoutes } from "./pages/llms_routes.ts";
import { versionReadRoutes } from "./versions/version_read_routes.ts";
import { webRoutes } from "./web/web_routes.ts";

/** The MCP SDK transport refuses bodies over 4 MiB itself, as a JSON-RPC error. */
const mcpTransportBodyLimit = ownBodyLimit(async function mcpTransportBodyLimit(_c, next) {
  await next();
});

/**
 * Builds the whole HTTP application from its dependencies; nothing here listens. Tests may
 * give the OAuth server a fetcher that never reaches the network.
 */
export function createApp(deps: Deps, options: { oauth?: OAuthOptions } = {}): Hono {
  const app = new Hono();
  app.use(requestId());
  app.use(securityHeaders(deps.config.baseUrl.startsWith("https:")));
  app.use(accessLog(deps.log));
  app.use(requestLimits());
  app.use(requestTimeout({ ms: deps.config.timeouts.requestMs, log: deps.log }));
  app.route("/", healthRoutes(deps));
  // Each surface declares its budget where it is mounted (REST in `apiRoutes`, `llms.txt` and
  // the OAuth token endpoints on their routes). MCP gets CORS first, so a browser client can
  // read its 429 (a JSON-RPC error) too; the SDK transport bounds its own bodies (4 MiB).
  for (const path of ["/mcp", "/mcp/*"]) {
    app.use(
      path,
      mcpCors(),
      rateLimit(deps, "api", { tooMany: mcpTooManyRequests }),
      mcpTransportBodyLimit,
    );
  }
  // Web pages: their own budget, per session when signed in (issue 14.7).
  app.use("/w/*", webBudget(deps, (c) => liveSessionId(c, deps)));
  app.route("/api/v1", apiRoutes(deps));
  app.route("/", mcpRoutes(deps));
  app.route("/", serverCardRoutes(deps));
  app.route("/", serverCardsRoutes(deps));
  app.route("/", oauthRoutes(deps, options.oauth));
  app.route("/", versionReadRoutes(deps));
  app.route("/", llmsRoutes(deps));
  // The web app last: its session middleware is registered per path, after every route
  // above has answered its own requests.
  app.route("/", webRoutes(deps, options.oauth));
  app.notFound((c) =>
    problemResponse(c, new AppError("not_found", `No route for ${c.req.method} ${c.req.path}`))
  );
  app.onError((error, c) => {
    if (error instanceof AppError) return problemResponse(c, error);
    if (isDatabaseUnavailable(error)) {
      deps.log.error("database unavailable", {
        request_id: c.get("requestId"),
        error: String(error),
      });
      const response = problemResponse(
        c,
        new AppError(
          "database_unavailable",
          "The database is unavailable: try again in a few seconds",
        ),
      );
      response.headers.set("Retry-After", "5");
      return response;
    }
    if (error instanceof HTTPException && error.status < 500) {
      const code = error.status === 415
        ? "unsupported_media_type"
        : error.status === 413
        ? "payload_too_large"
        : /json/i.test(error.message)
        ? "invalid_json"
        : "bad_request";
      return problemResponse(c, new AppError(code, error.message));
    }
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

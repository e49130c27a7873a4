import {
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { type Context, Hono } from "hono";
import { cors } from "hono/cors";
import { type Credential, requestCredential } from "../auth/credentials.ts";
import type { Deps } from "../deps.ts";
import { clientIp } from "../http/client_ip.ts";
import { chargeBatch } from "../limits/rate_limit.ts";
import { DEFAULT_SCOPES } from "../oauth/scopes.ts";
import { selectWiki } from "../wikis/store.ts";
import { buildHubServer, buildPrivateServer, buildWikiServer } from "./servers.ts";

/**
 * The three MCP endpoints, stateless: a fresh server and transport per POST, no session ids,
 * so any process answers any request. Each path answers with and without its trailing slash
 * (an MCP URL is never redirected: a redirect turns POST into GET). GET and DELETE get 405.
 */
export function mcpRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.use(
    "/mcp/*",
    cors({
      origin: (origin) => origin || "*",
      allowMethods: ["POST", "GET", "DELETE", "OPTIONS"],
      allowHeaders: [
        "Authorization",
        "Content-Type",
        "Accept",
        "MCP-Protocol-Version",
        "Mcp-Session-Id",
        "Last-Event-ID",
        "Mcp-Method",
        "Mcp-Name",
      ],
      exposeHeaders: [
        "WWW-Authenticate",
        "Mcp-Session-Id",
        "MCP-Protocol-Version",
        "Retry-After",
        "RateLimit",
        "RateLimit-Policy",
        "X-Request-Id",
      ],
      maxAge: 86400,
    }),
  );
  app.use("/mcp/*", async (c, next) => {
    // DNS rebinding: a page on another site must not reach a local server by a name it owns.
    const host = new URL(c.req.url).hostname;
    if (deps.config.allowedHosts && !deps.config.allowedHosts.includes(host)) {
      return jsonRpcError(c, 403, `Host "${host}" is not served here`);
    }
    await next();
  });
  const notAllowed = (c: Context) => c.body(null, 405, { Allow: "POST, OPTIONS" });

  for (const path of ["/mcp/hub", "/mcp/hub/"]) {
    app.post(path, (c) => serve(c, deps, buildHubServer(deps, userAgent(c), callerKey(c, deps))));
    app.on(["GET", "DELETE"], path, notAllowed);
  }
  for (const path of ["/mcp/w/:id", "/mcp/w/:id/"]) {
    app.post(path, async (c) => {
      const id = c.req.param("id") ?? "";
      const wiki = /^[a-z0-9-]{1,64}$/.test(id) ? await selectWiki(deps.db, id) : null;
      if (!wiki || wiki.visibility !== "public") {
        return jsonRpcError(c, 404, `Public wiki "${id}" not found`);
      }
      return serve(c, deps, buildWikiServer(deps, wiki, userAgent(c), callerKey(c, deps)));
    });
    app.on(["GET", "DELETE"], path, notAllowed);
  }
  for (const path of ["/mcp", "/mcp/"]) {
    app.post(path, async (c) => {
      const origin = c.req.header("origin");
      if (origin && !originAllowed(deps, origin)) {
        return jsonRpcError(c, 403, `Origin "${origin}" may not call this endpoint`);
      }
      // Bearer tokens travel in the Authorization header only (RFC 6750 §2.3, OAuth 2.1 §5.2.1).
      if (new URL(c.req.url).searchParams.has("access_token")) {
        return c.json({
          jsonrpc: "2.0",
          error: {
            code: -32600,
            message: "Send the token as Authorization: Bearer, not in the URL",
          },
          id: null,
        }, 400);
      }
      const resolved = await requestCredential(c, deps);
      if (!resolved.ok) return challenge(c, deps, resolved.reason);
      return serve(
        c,
        deps,
        buildPrivateServer(
          deps,
          resolved.credential,
          clientNameOf(c, resolved.credential),
          c.get("requestId") ?? null,
        ),
      );
    });
    app.on(["GET", "DELETE"], path, notAllowed);
  }
  return app;
}

/**
 * Hands the request to a fresh stateless transport and returns its JSON response; a batch is
 * first charged one request per call against the caller's budget.
 */
async function serve(c: Context, deps: Deps, server: McpServer): Promise<Response> {
  const refused = await chargeBatch(c, deps);
  if (refused) return refused;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return withBudget(c, await transport.handleRequest(withLenientAccept(c.req.raw)));
  } finally {
    await transport.close();
    await server.close();
  }
}

/** Adds the caller's remaining request budget to a tool result's `_meta`. */
async function withBudget(c: Context, response: Response): Promise<Response> {
  const state = c.get("rateLimit");
  if (!state || !response.headers.get("content-type")?.includes("application/json")) {
    return response;
  }
  const body = await response.json();
  if (body?.result && Array.isArray(body.result.content)) {
    body.result._meta = {
      ...body.result._meta,
      ratelimit: {
        limit: state.budget.limit,
        remaining: state.remaining,
        reset_seconds: state.resetSeconds,
      },
    };
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status: response.status, headers });
}

/**
 * The transport insists on both JSON and SSE in `Accept` (406 otherwise), but clients that
 * send only one are common; we always answer JSON, which both kinds of client read.
 */
function withLenientAccept(request: Request): Request {
  const accept = request.headers.get("accept") ?? "";
  if (accept.includes("application/json") && accept.includes("text/event-stream")) return request;
  const headers = new Headers(request.headers);
  headers.set("accept", "application/json, text/event-stream");
  return new Request(request, { headers });
}

function originAllowed(deps: Deps, origin: string): boolean {
  if (deps.config.allowedOrigins.includes(origin)) return true;
  try {
    const { hostname, protocol } = new URL(origin);
    return (protocol === "http:" || protocol === "https:") &&
      ["localhost", "127.0.0.1", "[::1]"].includes(hostname);
  } catch {
    return false;
  }
}

/**
 * 401 with a Bearer challenge (RFC 6750 §3) that points at the protected-resource metadata
 * (RFC 9728 §5.1) and names the scope to ask for, so OAuth clients can start sign-in: bare
 * when no credential came, with `error="invalid_token"` when one came and was refused.
 */
function challenge(c: Context, deps: Deps, reason: string): Response {
  const metadata = `${deps.config.baseUrl}/.well-known/oauth-protected-resource/mcp`;
  const base = `Bearer resource_metadata="${metadata}", scope="${DEFAULT_SCOPES.join(" ")}"`;
  const detail = {
    missing: "This endpoint needs a token: Authorization: Bearer <token>, or sign in with OAuth",
    malformed: "The Authorization header must be: Bearer <token>",
    unknown: "The token is not valid",
    revoked: "The token has been revoked",
    expired: "The token has expired",
  }[reason] ?? "The token is not valid";
  const header = reason === "missing"
    ? base
    : `${base}, error="invalid_token", error_description="${detail}"`;
  return c.json({ jsonrpc: "2.0", error: { code: -32001, message: detail }, id: null }, 401, {
    "WWW-Authenticate": header,
  });
}

function jsonRpcError(c: Context, status: 403 | 404, message: string): Response {
  return c.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, status);
}

/**
 * The client's name for usage records: an OAuth client's registered name; otherwise the
 * User-Agent, since stateless servers never see the `initialize` that carried `clientInfo`.
 */
function clientNameOf(c: Context, credential: Credential): string | null {
  if (credential.kind === "oauth") return credential.clientName;
  return userAgent(c);
}

/** The key the caller's requests are counted on (its address without a credential). */
function callerKey(c: Context, deps: Deps): string {
  // A shared-egress pool is many people: count their reports by address instead.
  const key = c.get("rateLimit")?.key;
  return key && !key.startsWith("shared:") ? key : `ip:${clientIp(c, deps.config)}`;
}

function userAgent(c: Context): string | null {
  return c.req.header("user-agent")?.slice(0, 200) ?? null;
}

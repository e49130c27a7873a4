import {
  createMcpHandler,
  isLegacyRequest,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { ANONYMOUS, authorize } from "../access/access_policy.ts";
import type { Credential } from "../access/credential.ts";
import { requestCredential } from "../auth/credentials.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { clientIp } from "../http/client_ip.ts";
import { chargeBatch } from "../limits/rate_limit.ts";
import { readingDeps } from "../db/replicas.ts";
import { batchRefusal } from "../limits/batch_limit.ts";
import { DEFAULT_SCOPES } from "../oauth/scopes.ts";
import type { WikiRow } from "../db/wiki_row.ts";
import { calledTool, type ToolMiddleware } from "../kit/mcp/tool_middleware.ts";
import {
  answerLean,
  isLegacyLeanCall,
  type LeanCall,
  leanCallOf,
  type LeanTool,
} from "../kit/mcp/lean_call.ts";
import { answerTaskRequest } from "../tasks/task_requests.ts";
import { foundWiki, mayStartEarly, recentlyPublic } from "../access/early_admission.ts";
import {
  buildHubServer,
  buildPrivateServer,
  buildWikiServer,
  HUB_LEAN_TOOLS,
  hubLeanTool,
  WIKI_LEAN_TOOLS,
  wikiLeanTool,
} from "./servers.ts";
import { SERVER_INFO } from "./server_info.ts";
import { mcpTooManyRequests } from "./too_many_requests.ts";

/**
 * CORS for the MCP endpoints. `createApp` applies it before the rate limiter, so a browser
 * client can read a 429 (and its `Retry-After`) as well as any other answer. A preflight is
 * answered by Hono's `cors`; on any other request the same headers are set on the answer once
 * it is made. (Hono's `cors` sets them on a placeholder response before the route runs, so
 * Hono then copies the route's response into a new one to carry them, and copies it again to
 * append `Vary`: two responses made per request for three headers.)
 */
export function mcpCors(): MiddlewareHandler {
  const preflight = cors(MCP_CORS);
  const exposed = MCP_CORS.exposeHeaders.join(",");
  return async function mcpCors(c, next) {
    if (c.req.method === "OPTIONS") return await preflight(c, next);
    await next();
    const entries: [string, string, "append"?][] = [
      ["Access-Control-Allow-Origin", MCP_CORS.origin(c.req.header("origin") || "")],
      ["Access-Control-Expose-Headers", exposed],
      ["Vary", "Origin", "append"],
    ];
    for (const [name, value, append] of entries) {
      try {
        if (append) c.res.headers.append(name, value);
        else c.res.headers.set(name, value);
      } catch {
        // A response whose headers are immutable (one from `fetch`): Hono copies it.
        c.header(name, value, { append: append !== undefined });
      }
    }
  };
}

/** What `mcpCors` allows and exposes. */
const MCP_CORS = {
  origin: (origin: string) => origin || "*",
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
};

/**
 * The three MCP endpoints, stateless: a fresh server per POST, no session ids, so any process
 * answers any request. Both protocol revisions are served from the same server factories:
 * 2025-11-25 (`initialize` handshake) and 2026-07-28 (per-request `_meta` envelope,
 * `server/discover`). Each path answers with and without its trailing slash (an MCP URL is
 * never redirected: a redirect turns POST into GET). GET and DELETE get 405, except that an
 * unauthenticated GET on the private endpoint gets the same 401 challenge as a POST.
 */
export function mcpRoutes(deps: Deps): Hono {
  const app = new Hono();
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
    app.post(
      path,
      (c) =>
        serve(
          c,
          deps,
          (d, around, only) => buildHubServer(d, userAgent(c), callerKey(c, deps), around, only),
          "hub",
          undefined,
          {
            tools: HUB_LEAN_TOOLS,
            tool: (d, around, name) =>
              hubLeanTool(d, userAgent(c), callerKey(c, deps), around, name),
          },
        ),
    );
    app.on(["GET", "DELETE"], path, notAllowed);
  }
  for (const path of ["/mcp/w/:id", "/mcp/w/:id/"]) {
    app.post(path, (c) => serveWiki(c, deps));
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
      const { credential } = resolved;
      const [client, requestId] = [clientNameOf(c, credential), requestIdOf(c)];
      return serve(
        c,
        deps,
        (d, around, only) => buildPrivateServer(d, credential, client, requestId, around, only),
        `${credential.kind}:${credential.id}`,
      );
    });
    // Clients (mcp-remote among them) probe with GET to learn how to sign in: answer it as a
    // POST would be answered, and only a caller with a valid credential learns it is 405.
    app.get(path, async (c) => {
      const resolved = await requestCredential(c, deps);
      if (!resolved.ok) return challenge(c, deps, resolved.reason);
      return notAllowed(c);
    });
    app.delete(path, notAllowed);
  }
  return app;
}

/**
 * A POST to `/mcp/w/<id>/`. The wiki is looked up while `serve` reads and charges the request:
 * its round trip is off the request's path. An unknown (or private) wiki answers 404 before the
 * SDK runs, or, for a read-only tool call on a wiki found public moments ago, instead of the
 * answer given meanwhile (src/access/early_admission.ts); such a `search` is admitted by the
 * visibility its own statistics statement reads, without a look-up (see `serve`). One read-only
 * tool call may be answered by the lean path (src/kit/mcp/lean_call.ts).
 */
function serveWiki(c: Context, deps: Deps): Promise<Response> {
  const id = c.req.param("id") ?? "";
  const known = recentlyPublic(deps.db, id);
  let wiki: WikiRow | undefined;
  let found: Promise<Response | null> | undefined;
  const check = () =>
    found ??= authorize(deps, ANONYMOUS, id, "read", "mcp").then((access) => {
      wiki = access.wiki;
      foundWiki(deps.db, id, access.wiki);
      return null;
    }, (error) => {
      if (error instanceof AppError && error.code === "wiki_not_found") {
        foundWiki(deps.db, id, null);
        return jsonRpcError(c, 404, error.detail);
      }
      throw error;
    });
  // Not found public moments ago: looked up now, while the request is read (a request refused
  // before it is awaited, 413 or 429, leaves no unhandled rejection).
  if (known === undefined) check().catch(() => {});
  return serve(
    c,
    deps,
    (d, around, only) =>
      buildWikiServer(d, wiki ?? known!, userAgent(c), callerKey(c, deps), around, only),
    `w:${id}`,
    { check, early: known !== undefined, wiki: id },
    {
      tools: WIKI_LEAN_TOOLS,
      tool: (d, around, name) =>
        wikiLeanTool(d, wiki ?? known!, userAgent(c), callerKey(c, deps), around, name),
    },
  );
}

/**
 * Serves one POST through the SDK. A 2025-era request (no per-request `_meta` envelope) goes
 * to a fresh stateless streamable-HTTP transport answering JSON, as before; everything else
 * goes to the SDK's 2026-07-28 handler, which also owns that revision's errors (an envelope
 * naming an unknown revision, `Mcp-Method`/`Mcp-Name` header mismatches). Both build their
 * server from the same factory, so tools, credentials, usage records and audit are the same.
 * A batch is first charged one request per call against the caller's budget. Task requests
 * (`src/tasks/`) are answered before the SDK; `owner` is who may see the tasks made here.
 * `admission` is the endpoint's own check: a refusal, or null to go on, awaited before the SDK
 * runs, or after it for a read-only tool call when `early` allows it. An early `search` of the
 * endpoint's one wiki, without read replicas, is admitted by the wiki's visibility as the
 * search's own statistics statement read it on the primary (`visibilitySeen`), so the check's
 * look-up is not sent; when that statement did not read it public (a wiki without statistics, a
 * call refused before the search ran, a wiki made private), the check runs as before. `lean`,
 * when the endpoint has one, answers one 2025-era read-only tool call without the SDK's
 * per-request server when `MCP_LEAN_CALLS` allows (src/kit/mcp/lean_call.ts).
 * The body is parsed once, here, and handed to the SDK parsed (`parsedBody`); each tool result
 * gets the caller's remaining budget from `around` as the SDK builds it, not by parsing and
 * serialising the SDK's answer again.
 */
async function serve(
  c: Context,
  deps: Deps,
  buildWith: (deps: Deps, around: ToolMiddleware, only?: string) => McpServer,
  owner: string,
  admission: Admission = { check: () => Promise.resolve(null), early: false },
  lean?: Lean,
): Promise<Response> {
  // The body is read once, here, bounded: the batch count and the SDK both use these bytes.
  const body = await readBounded(c.req.raw, MAX_MCP_BODY);
  if (body === null) {
    return c.json({
      jsonrpc: "2.0",
      // The SDK transport's own words for the same refusal.
      error: {
        code: -32600,
        message: `Payload Too Large: Request body must not exceed ${MAX_MCP_BODY} bytes`,
      },
      id: null,
    }, 413);
  }
  const parsed = parseJson(body);
  const batch = Array.isArray(parsed) ? parsed : null;
  const refused = await chargeBatch(c, deps, batch?.length || 1, mcpTooManyRequests);
  if (refused) return refused;
  const unbatchable = batch && batchRefusal(batch, c.req.header("mcp-protocol-version"));
  if (unbatchable) {
    return c.json({ jsonrpc: "2.0", error: { code: -32600, message: unbatchable }, id: null }, 400);
  }
  const early = admission.early && mayStartEarly(parsed);
  const seen = early && admission.wiki !== undefined && !deps.replicas &&
      calledTool(parsed) === "search"
    ? new Map<string, string>()
    : undefined;
  // Started now (the tool runs meanwhile), unless the search's own statement may answer it.
  const checked = seen ? undefined : admission.check();
  // A request refused before it is awaited leaves no unhandled rejection.
  checked?.catch(() => {});
  const refusedFirst = early ? null : await checked;
  if (refusedFirst) return refusedFirst;
  // The tools read through a replica when there is one (and the caller's writes are replayed).
  const replicated = await readingDeps(deps, c.get("rateLimit")?.key);
  const reading = seen ? { ...replicated, visibilitySeen: seen } : replicated;
  // One `tools/call` needs the server with that tool alone: the others are not built.
  const only = calledTool(parsed);
  const build = () => buildWith(reading, withBudget(c), only);
  // A task (`ask` where the client declares the Tasks extension) is answered before the SDK.
  const task = { deps, owner, build, serverInfo: SERVER_INFO };
  const tasked = await answerTaskRequest(task, c.req.raw.headers, parsed);
  if (tasked) return tasked;
  const writes = deps.replicas !== undefined && callsWriteTool(parsed);
  // One read-only tool call the lean path may answer (src/kit/mcp/lean_call.ts).
  const call = lean && deps.config.mcpLeanCalls
    ? leanCallOf(parsed, c.req.raw.headers, lean.tools)
    : undefined;
  // The request's era, decided once for the lean path and the SDK's: for a lean call by the
  // SDK's answer for its header, else by the SDK on the body (unparseable JSON: the SDK reads
  // the body for its error and decides there).
  const legacy = (call && isLegacyLeanCall(c.req.raw.headers)) ??
    (parsed === undefined ? undefined : await isLegacyRequest(c.req.raw, parsed));
  const leanAnswer = call && legacy
    ? answerLeanCall(call, (name) => lean!.tool(reading, withBudget(c), name))
    : undefined;
  const response = await leanAnswer ?? await serveBuilt(c, deps, body, parsed, build, legacy);
  const admitted = seen?.get(admission.wiki!) === "public";
  const refusedAfter = early && !admitted ? await admission.check() : null;
  if (refusedAfter) return refusedAfter;
  if (deps.replicas && response.status < 400 && writes) {
    await deps.replicas.wrote(c.get("rateLimit")?.key);
  }
  return response;
}

/**
 * An endpoint's own check of a request (see `serve`): `check` starts it on its first call (later
 * calls give the same promise); `wiki` is the endpoint's one wiki, which a `search`'s own
 * statement may find public instead.
 */
type Admission = { check: () => Promise<Response | null>; early: boolean; wiki?: string };

/**
 * An endpoint's lean path (src/kit/mcp/lean_call.ts): the tools one 2025-era call of which it
 * answers without the SDK's per-request server, and how it registers one of them.
 */
type Lean = {
  tools: ReadonlySet<string>;
  tool: (deps: Deps, around: ToolMiddleware, name: string) => LeanTool | undefined;
};

/** The lean answer to a 2025-era call, or undefined when the SDK is to answer it. */
async function answerLeanCall(
  call: LeanCall,
  toolOf: (name: string) => LeanTool | undefined,
): Promise<Response | undefined> {
  const tool = toolOf(call.name);
  return tool && await answerLean(call, tool);
}

/** `serve`'s exchange with the SDK, once the request is admitted. */
async function serveBuilt(
  c: Context,
  deps: Deps,
  body: Uint8Array<ArrayBuffer>,
  parsed: unknown,
  build: () => McpServer,
  legacy: boolean | undefined,
): Promise<Response> {
  const exchange = new AbortController();
  const request = forTransport(c.req.raw, body, exchange.signal);
  // Unparseable JSON (`parsed` undefined) is left to the SDK: it reads the body for its error.
  if (legacy ?? await isLegacyRequest(request, parsed)) {
    return await serveLegacy(request, build(), parsed);
  }
  const handler = createMcpHandler(build, {
    legacy: "reject",
    // Reporting only: the SDK has already answered the refused request (bad revision,
    // header mismatch) with the revision's own error.
    onerror: (error) =>
      deps.log.info("mcp request refused", { request_id: requestIdOf(c), error: error.message }),
  });
  try {
    return await handler.fetch(request, { parsedBody: parsed });
  } finally {
    // The exchange is over once the handler has answered: its per-request server and transport
    // tear down on this signal (stateless: nothing outlives the response).
    await withoutStackTraces(async () => {
      exchange.abort();
      await handler.close();
    });
  }
}

/** The tools that only read: a call of any other leaves a read-your-writes mark. */
const READ_TOOLS = new Set([
  "search",
  "fetch",
  "get_page",
  "list_pages",
  "neighbors",
  "ask",
  "list_wikis",
  "my_spaces",
]);

/** Decodes request bodies: one per process (a decoder that is not streaming keeps no state). */
const utf8 = new TextDecoder();

/** The body as JSON, or undefined when it is empty or not JSON. */
function parseJson(body: Uint8Array): unknown {
  if (body.byteLength === 0) return undefined;
  try {
    return JSON.parse(utf8.decode(body));
  } catch {
    return undefined;
  }
}

/** Whether a JSON-RPC body calls a tool that may write (`tools/call` of one not in READ_TOOLS). */
function callsWriteTool(parsed: unknown): boolean {
  if (parsed === undefined) return false;
  return (Array.isArray(parsed) ? parsed : [parsed]).some((m) =>
    m?.method === "tools/call" && !READ_TOOLS.has(String(m?.params?.name))
  );
}

async function serveLegacy(
  request: Request,
  server: McpServer,
  parsedBody: unknown,
): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await withoutStackTraces(async () => {
      await transport.close();
      await server.close();
    });
  }
}

/**
 * Runs a per-request server's teardown without stack traces: the SDK makes a "Connection
 * closed" error on every close for the handlers still waiting, whose stack trace cost ~0.2 ms
 * a request, and after the answer nobody waits. The teardown's synchronous part runs here
 * (the SDK's close hooks are synchronous); the limit is back before anything else runs.
 */
async function withoutStackTraces(teardown: () => Promise<void>): Promise<void> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let done: Promise<void>;
  try {
    done = teardown();
  } finally {
    Error.stackTraceLimit = limit;
  }
  await done;
}

/**
 * Tool middleware that adds the caller's remaining request budget to each tool result's
 * `_meta` (`ratelimit`), as charged for this request. A result the SDK makes itself (arguments
 * that fail the tool's schema) carries none.
 */
function withBudget(c: Context): ToolMiddleware {
  return async (_call, next) => {
    const result = await next();
    const state = c.get("rateLimit");
    if (!state) return result;
    const ratelimit = {
      limit: state.budget.limit,
      remaining: state.remaining,
      reset_seconds: state.resetSeconds,
    };
    return { ...result, _meta: { ...result._meta, ratelimit } };
  };
}

/**
 * The request as the SDK gets it. The transport insists on both JSON and SSE in `Accept` (406
 * otherwise), but clients that send only one are common; we always answer JSON, which both
 * kinds of client read. And it gets a signal of its own, `serve`'s, aborted when the handler
 * has answered: the 2026-07-28 handler tears the exchange down on it. (Deno's own
 * `request.signal` aborts only when the client goes away, with `no-legacy-abort`.)
 */
function forTransport(
  request: Request,
  body: Uint8Array<ArrayBuffer>,
  signal: AbortSignal,
): Request {
  const headers = new Headers(request.headers);
  const accept = headers.get("accept") ?? "";
  if (!(accept.includes("application/json") && accept.includes("text/event-stream"))) {
    headers.set("accept", "application/json, text/event-stream");
  }
  return new Request(request.url, {
    method: request.method,
    headers,
    body: body.byteLength > 0 ? body : null,
    signal,
  });
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

/** The most an MCP request body may hold: the SDK transport's own bound (4 MiB). */
const MAX_MCP_BODY = 4 * 1024 * 1024;

/**
 * The request's body, read to its end unless it passes `max` bytes (then null). A body whose
 * `Content-Length` is declared within `max` is read in one piece (`arrayBuffer()`: the HTTP
 * server holds it to the length declared and reads it without a JavaScript stream, half the
 * time of reading it part by part); one without (chunked) is read part by part and refused
 * past `max`. A body longer than it declared (possible in process, not over HTTP) is refused.
 * A declared length never asks the request for its `body`: that getter makes the body's
 * stream (a `ReadableStream` and its controller: ~7 µs a request), which `arrayBuffer()` does
 * without (a request with no body reads as empty).
 */
async function readBounded(
  request: Request,
  max: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = request.headers.get("content-length");
  if (Number(declared ?? 0) > max) return null;
  if (declared !== null && /^\d+$/.test(declared)) {
    const whole = new Uint8Array(await request.arrayBuffer());
    return whole.byteLength > max ? null : whole;
  }
  if (!request.body) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of request.body) {
    size += part.byteLength;
    if (size > max) return null;
    parts.push(part);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
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

function requestIdOf(c: Context): string | null {
  return c.get("requestId") ?? null;
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

import { McpServer } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { z } from "zod";
import { ANONYMOUS, authorize, chooseSpace, reachableSpaces } from "../access/access_policy.ts";
import type { Credential } from "../access/credential.ts";
import { auditToolCall } from "../audit/audit_hooks.ts";
import {
  builtFor,
  type BuiltServer,
  type ToolMiddleware,
  type ToolRegistrar,
  toolsWith,
} from "../kit/mcp/tool_middleware.ts";
import { parsePageUrl } from "../lib/urls.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { registerProposeTool, registerReportTool } from "../feedback/feedback_tools.ts";
import { listPublicWikiIds } from "../wikis/list_public_wikis.ts";
import { TASK_CAPABILITIES } from "../tasks/wire.ts";
import { registerWikiView } from "../mcp_app/wiki_view.ts";
import type { WikiRow } from "../db/wiki_row.ts";
import { HUB_INSTRUCTIONS, PRIVATE_INSTRUCTIONS, wikiInstructions } from "./instructions.ts";
import { registerPageTools } from "../pages/page_tools.ts";
import { registerFetchTool } from "../pages/fetch_tool.ts";
import { registerSearchTools } from "../search/search_tools.ts";
import { registerAskTools } from "../ask/ask_tools.ts";
import type { WikiScope } from "../kit/mcp/wiki_scope.ts";
import { type LeanTool, leanTool } from "../kit/mcp/lean_call.ts";
import { SERVER_INFO } from "./server_info.ts";
import { registerSkillResources } from "./skills.ts";
import { registerListWikisTool, registerMySpacesTool } from "../wikis/wiki_tools.ts";
import { registerConfirmUseTool } from "../pages/page_use_tools.ts";

/** How long a client may reuse `tools/list` and `server/discover` (2026-07-28 cache hints). */
const LIST_TTL_MS = 300_000;

/**
 * The JSON Schema validator every server of this process shares. Without one, each
 * (per-request) server makes its own Ajv instance, whose schema cache then never outlives the
 * request; the validator holds no per-request state (the SDK uses it on elicitation answers).
 */
const JSON_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/**
 * A server with our identity. `tools.listChanged` stays false: the tool set never changes
 * while a process runs, and a stateless endpoint has no stream to announce a change on. The
 * 2026-07-28 cache hints let clients reuse the tool list for five minutes: shared caches may
 * keep the public endpoints' lists, the private endpoint's only the caller.
 */
function newServer(title: string, instructions: string, scope: "public" | "private"): McpServer {
  const hint = { ttlMs: LIST_TTL_MS, cacheScope: scope };
  return new McpServer({ ...SERVER_INFO, title }, {
    instructions,
    jsonSchemaValidator: JSON_SCHEMA_VALIDATOR,
    capabilities: { tools: { listChanged: false }, ...TASK_CAPABILITIES },
    cacheHints: { "tools/list": hint, "server/discover": hint },
  });
}

/**
 * The hub's and the private endpoint's scope parameters, declared once: the tools' input
 * schemas extended with them are then built once per process (`withScope`).
 */
const HUB_PARAM = {
  name: "wiki" as const,
  schema: z.string().min(1).max(64).describe("The id of a public wiki, from list_wikis"),
  searchSchema: z.string().min(1).max(64).optional().describe(
    "The id of a public wiki, from list_wikis; leave it out to search every public wiki",
  ),
};
const SPACE_PARAM = {
  name: "space" as const,
  schema: z.string().min(1).max(64).optional().describe(
    "The id of one of your spaces, from my_spaces (needed when you can reach more than one)",
  ),
  searchSchema: z.string().min(1).max(64).optional().describe(
    "The id of one of your spaces, from my_spaces; leave it out to search all of them",
  ),
};

/** The report tool's `space` (it searches nothing, so leaving it out never means "all"). */
const REPORT_SPACE_PARAM = { ...SPACE_PARAM, searchSchema: SPACE_PARAM.schema };

/**
 * The hub: every public wiki, chosen per call by the `wiki` parameter. `client` names the
 * caller in usage counts; `caller` is the key its requests are counted on (its report budget,
 * and the asker its repeated questions are recorded once for). `around` runs around every tool
 * call (the endpoint adds the caller's remaining budget to each result with it).
 */
export function buildHubServer(
  deps: Deps,
  client: string | null = null,
  caller = "unknown",
  around: ToolMiddleware = passThrough,
  only?: string,
): McpServer {
  return builtFor(only, (one) => {
    const server = newServer("Public wikis", HUB_INSTRUCTIONS, "public");
    const tools = toolsWith(server, around, one);
    if (one === undefined) registerWikiView(server);
    registerHubTools(tools, deps, client, caller);
    if (one === undefined) registerSkillResources(server, deps.config.baseUrl, { kind: "hub" });
    return { server, missed: tools.missed };
  });
}

/** The tools of the hub, registered on `tools` (`buildHubServer`, `hubLeanTool`). */
function registerHubTools(
  tools: ToolRegistrar,
  deps: Deps,
  client: string | null,
  caller: string,
): void {
  registerListWikisTool(tools, deps);
  const scope = {
    param: HUB_PARAM,
    resolve: async (id: string | undefined) =>
      (await authorize(deps, ANONYMOUS, id ?? "", "read", "mcp")).wiki.id,
    all: () => publicWikiIds(deps),
    client,
    asker: caller,
  };
  readTools(tools, deps, scope);
  registerReportTool(tools, deps, scope, anonymous(client), caller);
}

/** The hub's read-only tools a single call of which the lean path answers. */
export const HUB_LEAN_TOOLS: ReadonlySet<string> = new Set(["search", "fetch", "get_page"]);

/**
 * The hub's tool `name` (one of `HUB_LEAN_TOOLS`) as `buildHubServer` registers it, without a
 * server, for the lean answer to one call of it (src/kit/mcp/lean_call.ts).
 */
export function hubLeanTool(
  deps: Deps,
  client: string | null,
  caller: string,
  around: ToolMiddleware,
  name: string,
): LeanTool | undefined {
  if (!HUB_LEAN_TOOLS.has(name)) return undefined;
  return leanTool(around, name, (tools) => registerHubTools(tools, deps, client, caller));
}

/** One public wiki, fixed by the endpoint's path; its own instructions are appended. */
export function buildWikiServer(
  deps: Deps,
  wiki: WikiRow,
  client: string | null = null,
  caller = "unknown",
  around: ToolMiddleware = passThrough,
  only?: string,
): McpServer {
  return builtFor(only, (one) => {
    const server = newServer(wiki.title, wikiInstructions(wiki), "public");
    const tools = toolsWith(server, around, one);
    if (one === undefined) registerWikiView(server);
    registerWikiTools(tools, deps, wiki, client, caller);
    if (one === undefined) {
      registerSkillResources(server, deps.config.baseUrl, { kind: "wiki", id: wiki.id });
    }
    return { server, missed: tools.missed };
  });
}

/** The tools of the wiki endpoint, registered on `tools` (`buildWikiServer`, `wikiLeanTool`). */
function registerWikiTools(
  tools: ToolRegistrar,
  deps: Deps,
  wiki: WikiRow,
  client: string | null,
  caller: string,
): void {
  const scope = { param: null, resolve: () => Promise.resolve(wiki.id), client, asker: caller };
  readTools(tools, deps, scope);
  registerReportTool(tools, deps, scope, anonymous(client), caller);
}

/** The wiki endpoint's read-only tools a single call of which the lean path answers. */
export const WIKI_LEAN_TOOLS: ReadonlySet<string> = new Set(["search", "fetch", "get_page"]);

/**
 * The wiki endpoint's tool `name` (one of `WIKI_LEAN_TOOLS`) as `buildWikiServer` registers it,
 * without a server, for the lean answer to one call of it (src/kit/mcp/lean_call.ts).
 */
export function wikiLeanTool(
  deps: Deps,
  wiki: WikiRow,
  client: string | null,
  caller: string,
  around: ToolMiddleware,
  name: string,
): LeanTool | undefined {
  if (!WIKI_LEAN_TOOLS.has(name)) return undefined;
  return leanTool(around, name, (tools) => registerWikiTools(tools, deps, wiki, client, caller));
}

/** The caller's private spaces, reached with an account token, a space token or OAuth. */
export function buildPrivateServer(
  deps: Deps,
  credential: Credential,
  clientName: string | null,
  requestId: string | null = null,
  around: ToolMiddleware = passThrough,
  only?: string,
): McpServer {
  return builtFor(
    only,
    (one) => privateServer(deps, credential, clientName, requestId, around, one),
  );
}

/** `buildPrivateServer`'s server, with the tool `one` alone when it is given. */
function privateServer(
  deps: Deps,
  credential: Credential,
  clientName: string | null,
  requestId: string | null,
  around: ToolMiddleware,
  one: string | undefined,
): BuiltServer {
  const server = newServer("My spaces", PRIVATE_INSTRUCTIONS, "private");
  // Every tool call made with a credential goes into the space's audit log: declared here, as
  // middleware around the tools the features register.
  const audit = auditToolCall(
    deps,
    { credential, clientName, requestId },
    (args) => auditedSpaceOf(deps, credential, args),
  );
  const tools = toolsWith(server, (call, next) => around(call, () => audit(call, next)), one);
  const resolve = (id: string | undefined) => chooseSpace(deps, credential, id);

  registerMySpacesTool(tools, deps, credential);
  if (one === undefined) registerWikiView(server);
  readTools(tools, deps, {
    param: SPACE_PARAM,
    resolve,
    all: async () => {
      const spaces = await reachableSpaces(deps.db, credential);
      if (spaces.length === 0) {
        throw new AppError("bad_request", "This credential reaches no space");
      }
      return spaces.map((s) => s.id);
    },
    client: clientName,
    // As REST counts it: every credential of an account is one asker.
    asker: `account:${credential.accountId}`,
  });
  registerReportTool(
    tools,
    deps,
    {
      param: REPORT_SPACE_PARAM,
      resolve,
      client: clientName,
    },
    {
      accountId: credential.accountId,
      credentialKind: credential.kind,
      credentialId: credential.id,
      clientName,
    },
    // Every credential of an account shares its report budget (a new token buys none).
    `account:${credential.accountId}`,
  );
  registerProposeTool(tools, deps, SPACE_PARAM.schema, resolve, { credential, clientName });
  if (one === undefined) registerSkillResources(server, deps.config.baseUrl, { kind: "private" });

  registerConfirmUseTool(tools, deps, { credential, clientName }, SPACE_PARAM.schema, resolve);
  return { server, missed: tools.missed };
}

/** No middleware. */
const passThrough: ToolMiddleware = (_call, next) => next();

/** The sender of an anonymous report: only the client's name is known. */
function anonymous(client: string | null) {
  return { accountId: null, credentialKind: null, credentialId: null, clientName: client };
}

/** Most public wikis one hub search covers when it names none (the first, by id). */
export const HUB_SEARCH_WIKIS = 500;

/** The ids of the public wikis a hub search without `wiki` covers. */
async function publicWikiIds(deps: Pick<Deps, "db" | "config">): Promise<string[]> {
  const ids = await listPublicWikiIds(deps.db, HUB_SEARCH_WIKIS);
  if (ids.length === 0) throw new AppError("wiki_not_found", "This server has no public wiki");
  return ids;
}

/** The read tools every endpoint has, in the order `tools/list` shows them. */
function readTools(server: ToolRegistrar, deps: Deps, scope: WikiScope): void {
  registerSearchTools(server, deps, scope);
  registerFetchTool(server, deps, scope);
  registerPageTools(server, deps, scope);
  registerAskTools(server, deps, scope);
}

/**
 * The space a private tool call reaches, for its audit entry: the `space` it names (or the page
 * URL it names), else the credential's only space; null when the credential reaches none of
 * them (a space it does not reach is never attributed to it) or several.
 */
function auditedSpaceOf(
  deps: Deps,
  credential: Credential,
  args: { space?: unknown; page?: unknown },
): Promise<string | null> {
  const named = typeof args.space === "string"
    ? args.space
    : typeof args.page === "string"
    ? parsePageUrl(deps.config.baseUrl, args.page)?.wiki
    : undefined;
  return chooseSpace(deps, credential, named).catch(() => null);
}

import { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { ANONYMOUS, authorize, chooseSpace, reachableSpaces } from "../access/access_policy.ts";
import type { Credential } from "../auth/credentials.ts";
import { auditToolCalls } from "../audit/audit_hooks.ts";
import { auditedSpace } from "../audit/record_audit.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { registerProposeTool, registerReportTool } from "../feedback/feedback_tools.ts";
import { recordPageUse } from "../pages/record_page_use.ts";
import { recordUsage } from "../usage/record_usage.ts";
import {
  listPublicWikiIds,
  listPublicWikis,
  listPublicWikisInput,
  publicWikiListSchema,
} from "../wikis/list_public_wikis.ts";
import { listSpaces, spaceListSchema } from "../wikis/list_spaces.ts";
import type { WikiRow } from "../wikis/wikis.ts";
import { HUB_INSTRUCTIONS, PRIVATE_INSTRUCTIONS, wikiInstructions } from "./instructions.ts";
import { registerReadTools } from "./read_tools.ts";
import { registerSkillResources } from "./skills.ts";
import { runTool, toolResult } from "./tool_result.ts";

/** The service's name and version as MCP servers announce them. */
export const SERVER_INFO = { name: "knowledge-wiki", version: "0.1.0" };

/** The MCP protocol revisions every endpoint serves, newest first. */
export const PROTOCOL_VERSIONS = ["2026-07-28", "2025-11-25"] as const;

/** How long a client may reuse `tools/list` and `server/discover` (2026-07-28 cache hints). */
const LIST_TTL_MS = 300_000;

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
    capabilities: { tools: { listChanged: false } },
    cacheHints: { "tools/list": hint, "server/discover": hint },
  });
}

/**
 * The hub: every public wiki, chosen per call by the `wiki` parameter. `client` names the
 * caller in usage counts; `caller` is the key its requests are counted on (its report budget).
 */
export function buildHubServer(
  deps: Deps,
  client: string | null = null,
  caller = "unknown",
): McpServer {
  const server = newServer("Public wikis", HUB_INSTRUCTIONS, "public");
  server.registerTool("list_wikis", {
    title: "List public wikis",
    description:
      "List the public wikis of this server, with their ids (pass one as `wiki` to search, get_page " +
      "and neighbors), titles, descriptions and page counts. Filter with `query`; page with `cursor`.",
    inputSchema: z.object({
      query: listPublicWikisInput.shape.query,
      cursor: listPublicWikisInput.shape.cursor,
      limit: z.number().int().min(1).max(200).default(50).describe(
        "How many wikis to return (1-200)",
      ),
    }),
    outputSchema: publicWikiListSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, (args) =>
    runTool(deps.log, async () => {
      const out = await listPublicWikis(deps, args);
      const lines = out.wikis.map((w) =>
        `- ${w.id}: ${w.title} (${w.pages} pages)${w.description ? ` — ${w.description}` : ""}`
      );
      const more = out.next_cursor ? `\nMore wikis: pass cursor "${out.next_cursor}".` : "";
      return toolResult(out, (lines.join("\n") || "No public wiki matches.") + more);
    }));
  const scope = {
    param: {
      name: "wiki" as const,
      schema: z.string().min(1).max(64).describe("The id of a public wiki, from list_wikis"),
      searchSchema: z.string().min(1).max(64).optional().describe(
        "The id of a public wiki, from list_wikis; leave it out to search every public wiki",
      ),
    },
    resolve: async (id: string | undefined) =>
      (await authorize(deps, ANONYMOUS, id ?? "", "read", "mcp")).wiki.id,
    all: () => publicWikiIds(deps),
    client,
  };
  registerReadTools(server, deps, scope);
  registerReportTool(server, deps, scope, anonymous(client), caller);
  registerSkillResources(server, deps.config.baseUrl, { kind: "hub" });
  return server;
}

/** One public wiki, fixed by the endpoint's path; its own instructions are appended. */
export function buildWikiServer(
  deps: Deps,
  wiki: WikiRow,
  client: string | null = null,
  caller = "unknown",
): McpServer {
  const server = newServer(wiki.title, wikiInstructions(wiki), "public");
  const scope = { param: null, resolve: () => Promise.resolve(wiki.id), client };
  registerReadTools(server, deps, scope);
  registerReportTool(server, deps, scope, anonymous(client), caller);
  registerSkillResources(server, deps.config.baseUrl, { kind: "wiki", id: wiki.id });
  return server;
}

/** The caller's private spaces, reached with an account token, a space token or OAuth. */
export function buildPrivateServer(
  deps: Deps,
  credential: Credential,
  clientName: string | null,
  requestId: string | null = null,
): McpServer {
  // Every tool call made with a credential goes into the space's audit log.
  const server = auditToolCalls(
    newServer("My spaces", PRIVATE_INSTRUCTIONS, "private"),
    deps,
    { credential, clientName, requestId },
  );
  const spaceParam = z.string().min(1).max(64).optional().describe(
    "The id of one of your spaces, from my_spaces (needed when you can reach more than one)",
  );
  const resolve = async (id: string | undefined) =>
    auditedSpace(await chooseSpace(deps, credential, id));

  server.registerTool("my_spaces", {
    title: "List my spaces",
    description:
      "List the private spaces this credential can read, with ids (pass one as `space` to the " +
      "other tools), titles, your role and page counts.",
    inputSchema: z.object({}),
    outputSchema: spaceListSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, () =>
    runTool(deps.log, async () => {
      const out = await listSpaces(deps, credential);
      const lines = out.spaces.map((s) =>
        `- ${s.id}: ${s.title} (${s.pages} pages, you are ${s.role})`
      );
      return toolResult(out, lines.join("\n") || "This credential reaches no space.");
    }));
  registerReadTools(server, deps, {
    param: {
      name: "space",
      schema: spaceParam,
      searchSchema: z.string().min(1).max(64).optional().describe(
        "The id of one of your spaces, from my_spaces; leave it out to search all of them",
      ),
    },
    resolve,
    all: async () => {
      const spaces = await reachableSpaces(deps.db, credential);
      if (spaces.length === 0) {
        throw new AppError("bad_request", "This credential reaches no space");
      }
      // A call that touches one space is audited there; a search across several, nowhere.
      if (spaces.length === 1) auditedSpace(spaces[0]!.id);
      return spaces.map((s) => s.id);
    },
    client: clientName,
  });
  registerReportTool(
    server,
    deps,
    {
      param: { name: "space", schema: spaceParam, searchSchema: spaceParam },
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
  registerProposeTool(server, deps, spaceParam, resolve, { credential, clientName });
  registerSkillResources(server, deps.config.baseUrl, { kind: "private" });

  server.registerTool("confirm_use", {
    title: "Confirm use of a page",
    description:
      "Record that you used a page in your answer, at the revision you read (from get_page), " +
      "with the question it helped with. Owners see which pages help. Returns the page's use count.",
    inputSchema: z.object({
      space: spaceParam,
      page: z.string().min(1).max(400).describe("The page path you used"),
      revision: z.number().int().min(1).optional().describe(
        "The revision you read (default: the current one)",
      ),
      query: z.string().max(2000).optional().describe("The question or task the page helped with"),
      note: z.string().max(2000).optional().describe(
        "Anything the page's owners should know, e.g. what was missing",
      ),
    }),
    outputSchema: z.object({
      recorded: z.boolean(),
      page: z.string(),
      revision: z.number().int(),
      uses: z.number().int(),
    }),
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
  }, (args) =>
    runTool(deps.log, async () => {
      const wikiId = await resolve(args.space);
      const out = await recordPageUse(deps.db, { wikiId, ...args }, {
        accountId: credential.accountId,
        credentialKind: credential.kind,
        credentialId: credential.id,
        clientName,
      });
      await recordUsage(deps, { wikiId, kind: "confirm", page: out.page, client: clientName });
      return toolResult(
        out,
        `Recorded: page "${out.page}" revision ${out.revision} (${out.uses} uses so far).`,
      );
    }));
  return server;
}

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

import type { CallToolResult } from "@modelcontextprotocol/server";
import type { MiddlewareHandler } from "hono";
import type { Credential } from "../access/credential.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { recordAudit } from "./record_audit.ts";

/** Who makes the calls of one MCP request. */
export type AuditActor = {
  credential: Credential;
  clientName: string | null;
  requestId: string | null;
};

/**
 * The audit of a credential's tool calls, as tool middleware (`toolsWith` in the MCP kit): after
 * each call, the tool's name, the page it named, its outcome (`ok` or the error's code) and the
 * space the call's arguments reach with the credential (`spaceOf`: null when none, so a space
 * the credential does not reach is never attributed to it).
 *
 * @example
 * const tools = toolsWith(server, auditToolCall(deps, actor, (args) => spaceOf(args)));
 */
export function auditToolCall(
  deps: Pick<Deps, "db" | "log" | "config">,
  actor: AuditActor,
  spaceOf: (args: { space?: unknown; page?: unknown }) => Promise<string | null>,
): (
  call: { name: string; args: { space?: unknown; page?: unknown } },
  next: () => Promise<CallToolResult>,
) => Promise<CallToolResult> {
  return async function auditedToolCall(call, next) {
    const result = await next();
    const args = call.args;
    await recordAudit(deps, {
      wikiId: await spaceOf(args),
      accountId: actor.credential.accountId,
      credentialKind: actor.credential.kind,
      credentialId: actor.credential.id,
      clientName: actor.clientName?.slice(0, 200) ?? null,
      channel: "mcp",
      action: call.name,
      target: typeof args.page === "string" ? args.page.slice(0, 400) : null,
      outcome: result.isError ? String(result._meta?.code ?? "error") : "ok",
      requestId: actor.requestId,
    });
    return result;
  };
}

/**
 * Records every REST request on a space (`/api/v1/spaces/<id>/…`, after the account token
 * was accepted): the operation, the page, the outcome, and the space if the token reaches it.
 */
export function auditSpaceRequests(deps: Pick<Deps, "db" | "log" | "config">): MiddlewareHandler {
  return async function auditedSpaceRequest(c, next) {
    await next();
    const wikiId = c.get("auditedSpace") ?? null;
    const credential = c.get("credential");
    if (!credential) return;
    const { action, target } = restOperation(c.req.method, c.req.path);
    const error = c.error instanceof AppError ? c.error.code : null;
    await recordAudit(deps, {
      wikiId,
      accountId: credential.accountId,
      credentialKind: credential.kind,
      credentialId: credential.id,
      clientName: c.req.header("user-agent")?.slice(0, 200) ?? null,
      channel: "rest",
      action,
      target,
      outcome: c.res.status < 400 ? "ok" : error ?? `http_${c.res.status}`,
      requestId: c.get("requestId") ?? null,
    });
  };
}

/** The operation a space route performs, named like the MCP tools where one matches. */
function restOperation(method: string, path: string): { action: string; target: string | null } {
  const space = /^\/api\/v1\/spaces\/[^/]+\/?(.*)$/.exec(path);
  if (!space) return { action: "my_spaces", target: null };
  const rest = space[1]!;
  const page = /^pages\/([^/]+)(\/neighbors|\/revisions)?\/?$/.exec(rest);
  if (page) {
    const target = decode(page[1]!).slice(0, 400);
    if (page[2]) return { action: page[2].slice(1), target };
    const action = { GET: "get_page", PUT: "write_page", DELETE: "delete_page" }[method];
    return { action: action ?? `${method} page`, target };
  }
  const named: Record<string, string> = {
    "": `${method} space`,
    pages: "list_pages",
    search: "search",
    ask: "ask",
    import: "import",
  };
  return {
    action: named[rest.replace(/\/$/, "")] ?? `${method} ${rest}`.slice(0, 200),
    target: null,
  };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

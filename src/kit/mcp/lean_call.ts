import {
  type CallToolResult,
  classifyInboundRequest,
  type McpServer,
  specTypeSchemas,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/server";
import { type ToolMiddleware, toolsWith } from "./tool_middleware.ts";

/**
 * The lean answer to one 2025-era `tools/call` of a read-only tool: what the SDK's stateless
 * JSON path answers (docs/decisions.md, "MCP: a lean answer to one read-only tool call"),
 * without a per-request server, transport and request clone, and without the SDK's zod checks
 * of the JSON-RPC envelope in and out. The tool's own input and output schemas are checked as
 * the SDK checks them, and the result goes through the protocol's `CallToolResult` schema as the
 * SDK's does, so the bytes are the SDK's (`tests/mcp_lean_call_test.ts` compares them).
 *
 * Anything else is left to the SDK (`undefined`): a batch, a notification, another method, a
 * 2026-07-28 request, an `MCP-Protocol-Version` the SDK does not serve, a content type that
 * is not JSON, a `_meta` or `task` in the params (progress, tasks), a tool outside `tools`, or
 * arguments that fail the tool's schema (the SDK words that error). Checked before the tool
 * runs, so a request the SDK answers runs the tool once, there.
 */

/** A tool as registered (its config and its handler with the endpoint's middleware around it). */
export type LeanTool = {
  config: { inputSchema?: unknown; outputSchema?: unknown; scopeChallenge?: unknown };
  handler: (args: unknown, extra: unknown) => Promise<CallToolResult>;
};

/** One `tools/call` the lean path may answer: its id, tool and arguments. */
export type LeanCall = { id: string | number; name: string; args: unknown };

/**
 * The call in `parsed`, a request the SDK judged 2025-era, when the lean path may answer it
 * (`tools` names the tools it may). `headers` are the request's.
 */
export function leanCallOf(
  parsed: unknown,
  headers: Headers,
  tools: ReadonlySet<string>,
): LeanCall | undefined {
  if (!isObject(parsed)) return undefined;
  const version = headers.get("mcp-protocol-version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  if (!/^application\/json\s*(;|$)/i.test(headers.get("content-type") ?? "")) return undefined;
  const { jsonrpc, id, method, params, ...rest } = parsed;
  if (jsonrpc !== "2.0" || method !== "tools/call" || Object.keys(rest).length > 0) {
    return undefined;
  }
  if (!(typeof id === "string" || Number.isSafeInteger(id)) || !isObject(params)) return undefined;
  const { name, arguments: args, ...others } = params;
  if (typeof name !== "string" || !tools.has(name) || Object.keys(others).length > 0) {
    return undefined;
  }
  if (args !== undefined && !isObject(args)) return undefined;
  return { id: id as string | number, name, args };
}

/**
 * Whether the SDK serves a call `leanCallOf` accepted as a 2025-era request (what
 * `isLegacyRequest` says of it), without trying its body against the JSON-RPC schemas again.
 * For that one shape (a `tools/call` whose params are `name` and `arguments` alone: no `_meta`,
 * so no per-request envelope) the SDK's classification depends on the `MCP-Protocol-Version`
 * header alone, and on `Mcp-Method`/`Mcp-Name` only beside an envelope or a 2026 header: the
 * SDK's own `classifyInboundRequest` is asked once per header value leanCallOf lets through and
 * its answer kept. With `Mcp-Method` or `Mcp-Name` sent, undefined: ask the SDK
 * (`tests/mcp_lean_call_test.ts` holds the two to the same answers).
 */
export function isLegacyLeanCall(headers: Headers): boolean | undefined {
  if (headers.has("mcp-method") || headers.has("mcp-name")) return undefined;
  const version = headers.get("mcp-protocol-version");
  let legacy = legacyByVersion.get(version);
  if (legacy === undefined) {
    const outcome = classifyInboundRequest({
      httpMethod: "POST",
      ...(version === null ? {} : { protocolVersionHeader: version }),
      body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search" } },
    });
    legacyByVersion.set(version, legacy = outcome.kind === "legacy");
  }
  return legacy;
}

/** `isLegacyLeanCall`'s answers, by header value (bounded: leanCallOf admits known versions). */
const legacyByVersion = new Map<string | null, boolean>();

/**
 * The tool `name` as the endpoint registers it, with `around` (its middleware) around its
 * handler: `register` is the endpoint's own registration of its tools, given a registrar.
 */
export function leanTool(
  around: ToolMiddleware,
  name: string,
  register: (tools: ReturnType<typeof toolsWith>) => void,
): LeanTool | undefined {
  let found: LeanTool | undefined;
  const capture = {
    registerTool: (_: string, config: LeanTool["config"], handler: LeanTool["handler"]) => {
      found = { config, handler };
      return {};
    },
  } as unknown as McpServer;
  register(toolsWith(capture, around, name));
  return found?.config.scopeChallenge === undefined ? found : undefined;
}

/**
 * Answers `call` with `tool` as the SDK's stateless JSON transport would, or undefined when
 * its arguments fail the tool's input schema (the SDK answers that: the tool has not run).
 */
export async function answerLean(call: LeanCall, tool: LeanTool): Promise<Response | undefined> {
  const input = tool.config.inputSchema as StandardSchema | undefined;
  let args: unknown;
  if (input) {
    const checked = await input["~standard"].validate(call.args ?? {});
    if (checked.issues && checked.issues.length > 0) return undefined;
    args = checked.value;
  }
  let result: CallToolResult;
  try {
    result = await tool.handler(args, {});
    const problem = await outputProblem(tool, result, call.name);
    if (problem) result = toolError(problem);
  } catch (error) {
    result = toolError(error instanceof Error ? error.message : String(error));
  }
  const normalized = result.content === undefined ? { ...result, content: [] } : result;
  // The protocol's result schema, as the SDK applies it (its output is what is sent).
  const wire = specTypeSchemas.CallToolResult["~standard"].validate(normalized) as StandardResult;
  const message = !wire.issues ? { result: wire.value, jsonrpc: "2.0", id: call.id } : {
    jsonrpc: "2.0",
    id: call.id,
    error: {
      code: -32602,
      message: `Invalid tools/call result: ${wire.issues.map((i) => i.message).join(", ")}`,
    },
  };
  return Response.json(message, { status: 200, headers: { "Content-Type": "application/json" } });
}

/** What the SDK's output check says of `result`, in its words, or undefined when it passes. */
async function outputProblem(
  tool: LeanTool,
  result: CallToolResult,
  name: string,
): Promise<string | undefined> {
  const output = tool.config.outputSchema as StandardSchema | undefined;
  if (!output || result.isError) return undefined;
  if (result.structuredContent === undefined) {
    return `Output validation error: Tool ${name} has an output schema but no structured content was provided`;
  }
  const checked = await output["~standard"].validate(result.structuredContent);
  if (!checked.issues || checked.issues.length === 0) return undefined;
  const issues = checked.issues.map((issue) =>
    issue.path?.length
      ? `${
        issue.path.map((p) => String(typeof p === "object" ? (p as { key: unknown }).key : p))
          .join(".")
      }: ${issue.message}`
      : issue.message
  ).join(", ");
  return `Output validation error: Invalid structured content for tool ${name}: ${issues}`;
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

type StandardSchema = {
  "~standard": {
    validate(value: unknown): Promise<StandardResult> | StandardResult;
  };
};
type StandardResult = {
  value?: unknown;
  issues?: readonly { message: string; path?: readonly unknown[] }[];
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

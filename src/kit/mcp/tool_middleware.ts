import type { CallToolResult, McpServer } from "@modelcontextprotocol/server";

/** What a feature registers its tools on: a server, or a server with tool middleware. */
export type ToolRegistrar = Pick<McpServer, "registerTool">;

/** One tool call as middleware sees it: the tool's name and its (validated) arguments. */
export type ToolCall = { name: string; args: Record<string, unknown> };

/** Runs around every call of the tools registered through `toolsWith` (e.g. the audit). */
export type ToolMiddleware = (
  call: ToolCall,
  next: () => Promise<CallToolResult>,
) => Promise<CallToolResult>;

/**
 * The tools of `server` with `middleware` declared around each call: a registrar to hand the
 * features instead of the server, so the middleware is explicit where the server is built and
 * no tool knows of it. The server itself is left as it is.
 *
 * @example
 * const tools = toolsWith(server, auditToolCall(deps, actor, spaceOf));
 * registerSearchTools(tools, deps, scope);
 */
export function toolsWith(server: McpServer, middleware: ToolMiddleware): ToolRegistrar {
  const registerTool = (name: string, config: object, handler: Handler) =>
    server.registerTool(name, config, (args: unknown, extra: unknown) =>
      middleware(
        { name, args: typeof args === "object" && args !== null ? { ...args } : {} },
        () => handler(args, extra),
      ));
  // The SDK's overloads type a handler by its schema; the wrapper passes arguments through.
  return { registerTool } as unknown as ToolRegistrar;
}

type Handler = (args: unknown, extra: unknown) => Promise<CallToolResult>;

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
 * no tool knows of it. The server itself is left as it is. With `only`, the one tool a request
 * calls, the others are not registered (a per-request server answering one `tools/call` needs
 * no other; `missed` says whether `only` was among the tools, see `builtFor`).
 *
 * @example
 * const tools = toolsWith(server, auditToolCall(deps, actor, spaceOf));
 * registerSearchTools(tools, deps, scope);
 */
export function toolsWith(
  server: McpServer,
  middleware: ToolMiddleware,
  only?: string,
): ToolRegistrar & { readonly missed: boolean } {
  // `missed` is a plain property, set when `only` is registered: an object literal with a
  // getter is made by a slow path of V8's (~5 µs), and the lean path makes one per call.
  const tools = {
    missed: only !== undefined,
    registerTool: (name: string, config: object, handler: Handler) => {
      // A stand-in for a tool this request does not call (features may set its `execution`).
      if (only !== undefined && name !== only) return {};
      tools.missed = false;
      return server.registerTool(name, config, (args: unknown, extra: unknown) =>
        middleware(
          { name, args: typeof args === "object" && args !== null ? { ...args } : {} },
          () => handler(args, extra),
        ));
    },
  };
  // The SDK's overloads type a handler by its schema; the wrapper passes arguments through.
  return tools as unknown as ToolRegistrar & { readonly missed: boolean };
}

/**
 * A per-request server for a request that calls the tool `only` (undefined: any other request):
 * built with that tool alone, or in full when the endpoint has no tool of that name (so that
 * the SDK answers an unknown tool as it always does).
 */
export function builtFor(only: string | undefined, build: (only?: string) => BuiltServer) {
  if (only !== undefined) {
    const one = build(only);
    if (!one.missed) return one.server;
  }
  return build().server;
}

/** A server and whether the tool it was built for was missing from it (see `toolsWith`). */
export type BuiltServer = { server: McpServer; missed: boolean };

/**
 * The tool a JSON-RPC body calls when it is one `tools/call` (a batch, or any other method,
 * needs the whole server): the name a per-request server may be built for alone.
 */
export function calledTool(parsed: unknown): string | undefined {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const message = parsed as { method?: unknown; params?: { name?: unknown } };
  if (message.method !== "tools/call") return undefined;
  const name = message.params?.name;
  return typeof name === "string" ? name : undefined;
}

type Handler = (args: unknown, extra: unknown) => Promise<CallToolResult>;

import {
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { Deps } from "../deps.ts";
import { finishTask } from "./store.ts";

/** A tool call as `tools/call` names it. */
export type ToolCall = { name: string; arguments: Record<string, unknown> };

/**
 * Runs one tool call through a server from the endpoint's own factory, exactly as a plain
 * `tools/call` would run (the same credential, scope, usage records and audit), and returns
 * its result or its JSON-RPC error.
 */
export async function callThroughServer(
  build: () => McpServer,
  call: ToolCall,
): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = build();
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: call }),
      }),
    );
    const body = await response.json();
    return body.error ? { error: body.error } : { result: body.result };
  } finally {
    await transport.close();
    await server.close();
  }
}

/**
 * Runs a task's tool call in the background and writes how it ended. A tool that ran and
 * reported an error is `completed` with `isError` (the protocol's rule); only a protocol
 * error or a crash makes it `failed`. A task cancelled meanwhile stays cancelled.
 */
export function runInBackground(
  deps: Deps,
  taskId: string,
  build: () => McpServer,
  call: ToolCall,
): Promise<void> {
  return (async () => {
    let ended;
    try {
      ended = await callThroughServer(build, call);
    } catch (error) {
      deps.log.error("task failed", { task: taskId, error: String(error) });
      ended = { error: { code: -32603, message: "Internal error: the tool could not run" } };
    }
    const kept = ended.error
      ? await finishTask(deps.db, taskId, {
        status: "failed",
        message: ended.error.message,
        error: ended.error,
      })
      : await finishTask(deps.db, taskId, {
        status: "completed",
        message: ended.result?.isError ? "The tool reported an error" : "Answered",
        result: ended.result,
      });
    if (!kept) deps.log.info("task ended after it was cancelled", { task: taskId });
  })().catch((error) =>
    deps.log.error("task end not recorded", { task: taskId, error: String(error) })
  );
}

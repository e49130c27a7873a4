import type { McpServer } from "@modelcontextprotocol/server";
import type { Deps } from "../deps.ts";
import { runInBackground } from "./background_call.ts";
import { cancelTask, insertTask, selectTask, selectTasks, type TaskRow } from "./store.ts";
import { current, detailed2026, task2025, task2026, TASK_TTL_MS, TASKS_EXTENSION } from "./wire.ts";

/** The tools a client may run as a task: the one that can take seconds. */
export const TASK_TOOLS = new Set(["ask"]);

/** What the server announces with every 2026-07-28 result. */
type ServerInfo = { name: string; version: string };

type Rpc = { id: string | number; method: string; params: Record<string, unknown> };

/** Where a task request is answered: who asks, how to run a tool, the server's identity. */
export type TaskContext = {
  deps: Deps;
  /** Who may see the tasks this request makes or reads (see migrations/0040). */
  owner: string;
  build: () => McpServer;
  serverInfo: ServerInfo;
};

const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

/**
 * Answers the requests of the Tasks extension, before the SDK sees them (SDK 2.4 has no task
 * runtime): a `tools/call` of `ask` that asks for a task (2025-11-25: a `task` param; 2026-07-28:
 * the extension declared in the request's client capabilities) and the `tasks/*` methods.
 * Returns null for everything else, which the SDK then answers as before.
 */
export async function answerTaskRequest(
  ctx: TaskContext,
  headers: Headers,
  parsed: unknown,
): Promise<Response | null> {
  const rpc = rpcOf(parsed);
  if (!rpc) return null;
  const meta = rpc.params._meta as Record<string, unknown> | undefined;
  const version = meta?.[PROTOCOL_VERSION];
  if (version === undefined) return await answer2025(ctx, rpc);
  if (version !== "2026-07-28") return null;
  const capabilities = meta?.[CLIENT_CAPABILITIES] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  const declared = capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
  return await answer2026(ctx, rpc, headers, declared);
}

async function answer2026(
  ctx: TaskContext,
  rpc: Rpc,
  headers: Headers,
  declared: boolean,
): Promise<Response | null> {
  const method = headers.get("mcp-method")?.trim();
  if (method !== undefined && method !== rpc.method) return null; // the SDK refuses it (-32020)
  const stamp = { _meta: { [SERVER_INFO]: ctx.serverInfo } };
  if (rpc.method === "tools/call") {
    const name = String(rpc.params.name ?? "");
    const header = headers.get("mcp-name")?.trim();
    if (!declared || !TASK_TOOLS.has(name) || (header !== undefined && header !== name)) {
      return null;
    }
    const row = await startTask(ctx, name, rpc.params.arguments);
    return result(rpc, { resultType: "task", ...task2026(row), ...stamp });
  }
  if (!["tasks/get", "tasks/update", "tasks/cancel"].includes(rpc.method)) return null;
  if (!declared) {
    return error(rpc, -32021, `${rpc.method} needs the ${TASKS_EXTENSION} extension`, 400, {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    });
  }
  const taskId = String(rpc.params.taskId ?? "");
  const named = headers.get("mcp-name")?.trim();
  if (named !== undefined && named !== taskId) {
    return error(rpc, -32020, "The Mcp-Name header does not match params.taskId", 400);
  }
  const row = rpc.method === "tasks/cancel"
    ? await cancelTask(ctx.deps.db, ctx.owner, taskId)
    : await selectTask(ctx.deps.db, ctx.owner, taskId);
  if (!row) return error(rpc, -32602, `No task "${taskId}" here (unknown, or expired)`);
  // A task never asks for input here, so an update has nothing to resume: it is acknowledged.
  if (rpc.method !== "tasks/get") return result(rpc, { resultType: "complete", ...stamp });
  return result(rpc, { ...detailed2026(current(row)), ...stamp });
}

async function answer2025(ctx: TaskContext, rpc: Rpc): Promise<Response | null> {
  const db = ctx.deps.db;
  const taskId = String(rpc.params.taskId ?? "");
  switch (rpc.method) {
    case "tools/call": {
      const name = String(rpc.params.name ?? "");
      if (!TASK_TOOLS.has(name) || typeof rpc.params.task !== "object") return null;
      const ttl = (rpc.params.task as { ttl?: unknown } | null)?.ttl;
      const row = await startTask(ctx, name, rpc.params.arguments, ttl);
      return result(rpc, { task: task2025(row) });
    }
    case "tasks/get": {
      const row = await selectTask(db, ctx.owner, taskId);
      return row ? result(rpc, task2025(current(row))) : unknown(rpc, taskId);
    }
    case "tasks/result":
      return await taskResult2025(ctx, rpc, taskId);
    case "tasks/list": {
      const cursor = typeof rpc.params.cursor === "string" ? rpc.params.cursor : null;
      const rows = await selectTasks(db, ctx.owner, LIST_PAGE + 1, cursor);
      const page = rows.slice(0, LIST_PAGE);
      return result(rpc, {
        tasks: page.map((r) => task2025(current(r))),
        ...(rows.length > LIST_PAGE ? { nextCursor: page.at(-1)!.id } : {}),
      });
    }
    case "tasks/cancel": {
      const before = await selectTask(db, ctx.owner, taskId);
      if (!before) return unknown(rpc, taskId);
      if (current(before).status !== "working") {
        return error(rpc, -32602, `Task "${taskId}" has already ended (${before.status})`);
      }
      return result(rpc, task2025((await cancelTask(db, ctx.owner, taskId))!));
    }
    default:
      return null;
  }
}

/** Tasks one `tasks/list` page holds. */
const LIST_PAGE = 50;

/** Longest a 2025-11-25 `tasks/result` waits for the task to end. */
const RESULT_WAIT_MS = 300_000;

/** `tasks/result` (2025-11-25): waits for the end, then the tool's own result or error. */
async function taskResult2025(ctx: TaskContext, rpc: Rpc, taskId: string): Promise<Response> {
  const deadline = Date.now() + RESULT_WAIT_MS;
  let row = await selectTask(ctx.deps.db, ctx.owner, taskId);
  while (row && current(row).status === "working" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    row = await selectTask(ctx.deps.db, ctx.owner, taskId);
  }
  if (!row) return unknown(rpc, taskId);
  const ended = current(row);
  const related = { "io.modelcontextprotocol/related-task": { taskId } };
  if (ended.status === "completed" && ended.result) {
    const meta = ended.result._meta as Record<string, unknown> | undefined;
    return result(rpc, { ...ended.result, _meta: { ...meta, ...related } });
  }
  if (ended.status === "working") {
    return error(rpc, -32603, `Task "${taskId}" is still working: ask again`);
  }
  const failure = ended.error ?? { code: -32603, message: `Task "${taskId}" was cancelled` };
  return error(rpc, failure.code, failure.message, 200, { ...related });
}

/** Records the task (durably, before answering) and starts its tool call. */
async function startTask(
  ctx: TaskContext,
  name: string,
  args: unknown,
  ttl?: unknown,
): Promise<TaskRow> {
  const ttlMs = typeof ttl === "number" && Number.isInteger(ttl) && ttl > 0
    ? Math.min(ttl, TASK_TTL_MS)
    : TASK_TTL_MS;
  const row = await insertTask(ctx.deps.db, {
    id: crypto.randomUUID(),
    owner: ctx.owner,
    tool: name,
    ttlMs,
    message: "Writing the answer",
  });
  const call = { name, arguments: (args ?? {}) as Record<string, unknown> };
  void runInBackground(ctx.deps, row.id, ctx.build, call);
  return row;
}

/** The request in a parsed body (the endpoint parses it once) when it may be a task's. */
function rpcOf(value: unknown): Rpc | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const { id, method, params } = value as Record<string, unknown>;
  if (typeof method !== "string" || (typeof id !== "string" && typeof id !== "number")) {
    return null;
  }
  const p = params && typeof params === "object" ? params as Record<string, unknown> : {};
  if (method !== "tools/call" && !method.startsWith("tasks/")) return null;
  return { id, method, params: p };
}

function result(rpc: Rpc, value: Record<string, unknown>): Response {
  return Response.json({ jsonrpc: "2.0", id: rpc.id, result: value });
}

function error(
  rpc: Rpc,
  code: number,
  message: string,
  status = 200,
  data?: Record<string, unknown>,
): Response {
  return Response.json({
    jsonrpc: "2.0",
    id: rpc.id,
    error: { code, message, ...(data ? { data } : {}) },
  }, { status });
}

function unknown(rpc: Rpc, taskId: string): Response {
  return error(rpc, -32602, `No task "${taskId}" here (unknown, or expired)`);
}

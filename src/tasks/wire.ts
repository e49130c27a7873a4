import type { TaskRow } from "./store.ts";

/** The Tasks extension's id (2026-07-28, SEP-2663), declared under `capabilities.extensions`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** How long a task and its result are kept after it was created: one hour. */
export const TASK_TTL_MS = 3_600_000;

/** How often a client is asked to poll `tasks/get`. */
export const POLL_INTERVAL_MS = 1_000;

/**
 * A task still `working` this long after its last update is reported as failed: the process
 * running it stopped (restarted or crashed) before writing its end.
 */
export const STALE_MS = 600_000;

/**
 * What every endpoint declares: the 2025-11-25 experimental `tasks` capability (tools/call
 * may be made a task; tasks/list and tasks/cancel exist) and the 2026-07-28 extension. The
 * SDK's 2026 codec drops the 2025 slot from `server/discover`.
 */
export const TASK_CAPABILITIES = {
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  extensions: { [TASKS_EXTENSION]: {} },
};

/** The row as it stands now: a working task nobody has touched for too long has failed. */
export function current(row: TaskRow, now = Date.now()): TaskRow {
  if (row.status !== "working" || now - new Date(row.updated_at).getTime() < STALE_MS) {
    return row;
  }
  return {
    ...row,
    status: "failed",
    status_message: "The process running this task stopped",
    error: { code: -32603, message: "The process running this task stopped before it ended" },
  };
}

function base(row: TaskRow) {
  return {
    taskId: row.id,
    status: row.status,
    ...(row.status_message ? { statusMessage: row.status_message } : {}),
    createdAt: new Date(row.created_at).toISOString(),
    lastUpdatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** A 2025-11-25 `Task`: `ttl` and `pollInterval` in milliseconds. */
export function task2025(row: TaskRow): Record<string, unknown> {
  return { ...base(row), ttl: row.ttl_ms, pollInterval: POLL_INTERVAL_MS };
}

/** A 2026-07-28 task (SEP-2663): the same fields, named `ttlMs` and `pollIntervalMs`. */
export function task2026(row: TaskRow): Record<string, unknown> {
  return { ...base(row), ttlMs: row.ttl_ms, pollIntervalMs: POLL_INTERVAL_MS };
}

/**
 * A 2026-07-28 `tasks/get` answer (DetailedTask): the task, and once it has ended its tool
 * result (completed) or its JSON-RPC error (failed) inlined.
 */
export function detailed2026(row: TaskRow): Record<string, unknown> {
  return {
    resultType: "complete",
    ...task2026(row),
    ...(row.status === "completed" && row.result
      ? { result: { resultType: "complete", ...row.result } }
      : {}),
    ...(row.status === "failed" && row.error ? { error: row.error } : {}),
  };
}

/**
 * Marks a tool as one a 2025-11-25 client may run as a task (`execution.taskSupport`, which the
 * SDK's registerTool does not take); the 2026 codec leaves the field out of its tools/list.
 */
export function offerAsTask(tool: { execution?: { taskSupport?: string } }): void {
  tool.execution = { taskSupport: "optional" };
}

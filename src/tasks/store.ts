import type { Db } from "../db/db.ts";

/** A task's state: `working` until it ends in one of the other three. */
export type TaskStatus = "working" | "completed" | "failed" | "cancelled";

/** One task row, as every protocol revision's wire shape is made from it. */
export type TaskRow = {
  id: string;
  owner: string;
  tool: string;
  status: TaskStatus;
  status_message: string | null;
  result: Record<string, unknown> | null;
  error: { code: number; message: string; data?: unknown } | null;
  ttl_ms: number;
  created_at: Date;
  updated_at: Date;
};

const COLUMNS = "id, owner, tool, status, status_message, result, error, ttl_ms, " +
  "created_at, updated_at";

/** Records a new working task (durably: it is readable on any process once this returns). */
export async function insertTask(
  db: Db,
  task: { id: string; owner: string; tool: string; ttlMs: number; message: string },
): Promise<TaskRow> {
  // Expired tasks go as new ones come: no sweeper needed.
  await db`DELETE FROM mcp_tasks WHERE expires_at < now()`;
  const rows = await db.query<TaskRow>(
    `INSERT INTO mcp_tasks (id, owner, tool, status, status_message, ttl_ms, expires_at)
     VALUES ($1, $2, $3, 'working', $4, $5, now() + make_interval(secs => $5::int / 1000.0))
     RETURNING ${COLUMNS}`,
    [task.id, task.owner, task.tool, task.message, task.ttlMs],
  );
  return rows[0]!;
}

/** The owner's task, or null when there is none (or it has expired). */
export async function selectTask(db: Db, owner: string, id: string): Promise<TaskRow | null> {
  const rows = await db.query<TaskRow>(
    `SELECT ${COLUMNS} FROM mcp_tasks WHERE id = $1 AND owner = $2 AND expires_at >= now()`,
    [id, owner],
  );
  return rows[0] ?? null;
}

/** The owner's live tasks, newest first, `limit` after the cursor (a task id). */
export function selectTasks(
  db: Db,
  owner: string,
  limit: number,
  after: string | null,
): Promise<TaskRow[]> {
  return db.query<TaskRow>(
    `SELECT ${COLUMNS} FROM mcp_tasks
      WHERE owner = $1 AND expires_at >= now()
        AND ($2::text IS NULL OR (created_at, id) < (
          SELECT created_at, id FROM mcp_tasks WHERE id = $2 AND owner = $1))
      ORDER BY created_at DESC, id DESC LIMIT $3`,
    [owner, after, limit],
  );
}

/**
 * Ends a working task with its result or error. A task cancelled meanwhile (on any process)
 * stays cancelled: the update only touches a working row. Returns whether it did.
 */
export async function finishTask(
  db: Db,
  id: string,
  end: {
    status: "completed" | "failed";
    message: string;
    result?: Record<string, unknown>;
    error?: TaskRow["error"];
  },
): Promise<boolean> {
  const rows = await db`
    UPDATE mcp_tasks
       SET status = ${end.status}, status_message = ${end.message},
           result = ${end.result ? JSON.stringify(end.result) : null}::text::jsonb,
           error = ${end.error ? JSON.stringify(end.error) : null}::text::jsonb,
           updated_at = now()
     WHERE id = ${id} AND status = 'working'
     RETURNING id`;
  return rows.length > 0;
}

/** Cancels the owner's working task; returns the row as it now stands (null: no such task). */
export async function cancelTask(db: Db, owner: string, id: string): Promise<TaskRow | null> {
  await db`
    UPDATE mcp_tasks SET status = 'cancelled', status_message = 'Cancelled by the client',
           updated_at = now()
     WHERE id = ${id} AND owner = ${owner} AND status = 'working' AND expires_at >= now()`;
  return await selectTask(db, owner, id);
}

import type { Db } from "../db/db.ts";

/** A space's connection to a Git repository, as stored. */
export type GitSourceRow = {
  wiki_id: string;
  url: string;
  branch: string;
  folder: string;
  token_sealed: string | null;
  webhook_secret: string;
  interval_minutes: number | null;
  next_sync_at: Date | null;
  last_commit: string | null;
  last_synced_at: Date | null;
  files: Record<string, string>;
  last_error: string | null;
  failures: number;
  created_at: Date;
};

/** A sync job: queued, running under a lease, done or failed. */
export type SyncJobRow = {
  id: number;
  wiki_id: string;
  reason: "manual" | "schedule" | "webhook";
  state: "queued" | "running" | "done" | "failed";
  attempts: number;
  lease_owner: string | null;
  lease_until: Date | null;
  result: unknown;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
};

/** The fields a connection is made or changed with. */
export type GitSourceFields = {
  url: string;
  branch: string;
  folder: string;
  tokenSealed: string | null;
  intervalMinutes: number | null;
};

/** The space's Git connection, or null. */
export async function selectGitSource(db: Db, wikiId: string): Promise<GitSourceRow | null> {
  const [row] = await db<GitSourceRow>`SELECT * FROM git_sources WHERE wiki_id = ${wikiId}`;
  return row ? { ...row, files: parseFiles(row.files) } : null;
}

/** Connects a space, or changes its connection (the token only when a new one is given). */
export async function upsertGitSource(
  db: Db,
  wikiId: string,
  fields: GitSourceFields & { keepToken: boolean; webhookSecret: string },
): Promise<GitSourceRow> {
  const [row] = await db<GitSourceRow>`
    INSERT INTO git_sources
      (wiki_id, url, branch, folder, token_sealed, webhook_secret, interval_minutes, next_sync_at)
    VALUES (${wikiId}, ${fields.url}, ${fields.branch}, ${fields.folder}, ${fields.tokenSealed},
            ${fields.webhookSecret}, ${fields.intervalMinutes},
            CASE WHEN ${fields.intervalMinutes}::int IS NULL THEN NULL ELSE now() END)
    ON CONFLICT (wiki_id) DO UPDATE SET
      url = excluded.url, branch = excluded.branch, folder = excluded.folder,
      token_sealed = CASE WHEN ${fields.keepToken} THEN git_sources.token_sealed
                          ELSE excluded.token_sealed END,
      interval_minutes = excluded.interval_minutes,
      -- another repository, branch or folder: the next sync compares nothing with the old one
      last_commit = CASE WHEN (git_sources.url, git_sources.branch, git_sources.folder)
                              = (excluded.url, excluded.branch, excluded.folder)
                         THEN git_sources.last_commit END,
      files = CASE WHEN (git_sources.url, git_sources.branch, git_sources.folder)
                        = (excluded.url, excluded.branch, excluded.folder)
                   THEN git_sources.files ELSE '{}'::jsonb END,
      next_sync_at = CASE WHEN excluded.interval_minutes IS NULL THEN NULL
                          ELSE least(coalesce(git_sources.next_sync_at, now()),
                                     now() + make_interval(mins => excluded.interval_minutes)) END
    RETURNING *`;
  return { ...row!, files: parseFiles(row!.files) };
}

/** Replaces the webhook secret; returns false when the space is not connected. */
export async function updateWebhookSecret(db: Db, wikiId: string, secret: string) {
  const rows = await db`
    UPDATE git_sources SET webhook_secret = ${secret} WHERE wiki_id = ${wikiId} RETURNING 1`;
  return rows.length > 0;
}

/** Disconnects a space: its pages stay, and become editable again. */
export async function deleteGitSource(db: Db, wikiId: string): Promise<boolean> {
  const rows = await db`DELETE FROM git_sources WHERE wiki_id = ${wikiId} RETURNING 1`;
  await db`DELETE FROM sync_jobs WHERE wiki_id = ${wikiId} AND state = 'queued'`;
  return rows.length > 0;
}

/** Records a successful sync: the commit, when, and the files it had. */
export async function recordSyncSuccess(
  db: Db,
  wikiId: string,
  commit: string,
  files: Record<string, string>,
): Promise<void> {
  await db`
    UPDATE git_sources
    SET last_commit = ${commit}, last_synced_at = now(),
        files = ${JSON.stringify(files)}::text::jsonb, last_error = NULL, failures = 0
    WHERE wiki_id = ${wikiId}`;
}

/** Records a failed sync: the reason, counted. */
export async function recordSyncFailure(db: Db, wikiId: string, error: string): Promise<void> {
  await db`
    UPDATE git_sources SET last_error = ${error}, failures = failures + 1
    WHERE wiki_id = ${wikiId}`;
}

/**
 * Queues a sync of the space unless one is already queued (the partial unique index keeps one
 * queued job per space). A job already running does not count: it may have read the branch
 * before the push that asks for this one, so a follow-up is queued, and it will fetch the
 * newest commit when it runs. Returns the queued job.
 */
export async function enqueueSyncJob(
  db: Db,
  wikiId: string,
  reason: SyncJobRow["reason"],
): Promise<SyncJobRow> {
  const [inserted] = await db<SyncJobRow>`
    INSERT INTO sync_jobs (wiki_id, reason) VALUES (${wikiId}, ${reason})
    ON CONFLICT (wiki_id) WHERE state = 'queued' DO NOTHING
    RETURNING *`;
  if (inserted) return inserted;
  const [pending] = await db<SyncJobRow>`
    SELECT * FROM sync_jobs WHERE wiki_id = ${wikiId} AND state = 'queued'`;
  return pending ?? await enqueueSyncJob(db, wikiId, reason);
}

/**
 * Queues a job for every space whose schedule is due and moves its next time on. The UPDATE
 * re-checks `next_sync_at` after waiting for a row another process locked, so each due time
 * is taken by one process only.
 */
export async function enqueueDueSyncs(db: Db): Promise<string[]> {
  return await db.transaction(async (tx) => {
    const due = await tx<{ wiki_id: string }>`
      UPDATE git_sources
      SET next_sync_at = now() + make_interval(mins => interval_minutes)
      WHERE interval_minutes IS NOT NULL AND next_sync_at <= now()
      RETURNING wiki_id`;
    for (const { wiki_id } of due) {
      await tx`
        INSERT INTO sync_jobs (wiki_id, reason) VALUES (${wiki_id}, 'schedule')
        ON CONFLICT (wiki_id) WHERE state = 'queued' DO NOTHING`;
    }
    return due.map((d) => d.wiki_id);
  });
}

/**
 * Claims the oldest job that is queued, or running under an expired lease (its process died),
 * for `owner` until the lease runs out. `SKIP LOCKED` lets several processes claim at once
 * without waiting on, or taking, each other's job. A queued job waits while its space has a
 * job running: one sync of a space at a time, the follow-up after the one in hand.
 */
export async function claimSyncJob(
  db: Db,
  owner: string,
  leaseSeconds: number,
  /** Only this job (a sync asked for on demand, run by the request that asked). */
  jobId: number | null = null,
): Promise<SyncJobRow | null> {
  const [job] = await db<SyncJobRow>`
    UPDATE sync_jobs
    SET state = 'running', lease_owner = ${owner}, attempts = attempts + 1,
        lease_until = now() + make_interval(secs => ${leaseSeconds})
    WHERE id = (
      SELECT id FROM sync_jobs
      WHERE (state = 'running' AND lease_until < now()
             OR state = 'queued' AND NOT EXISTS (
               SELECT 1 FROM sync_jobs r WHERE r.wiki_id = sync_jobs.wiki_id
                 AND r.state = 'running'))
        AND (${jobId}::bigint IS NULL OR id = ${jobId}::bigint)
      ORDER BY id
      LIMIT 1
      FOR UPDATE SKIP LOCKED)
    RETURNING *`;
  return job ?? null;
}

/** Extends a lease the owner still holds; false when another process took the job over. */
export async function renewSyncLease(
  db: Db,
  jobId: number,
  owner: string,
  leaseSeconds: number,
): Promise<boolean> {
  const rows = await db`
    UPDATE sync_jobs SET lease_until = now() + make_interval(secs => ${leaseSeconds})
    WHERE id = ${jobId} AND lease_owner = ${owner} AND state = 'running'
    RETURNING 1`;
  return rows.length > 0;
}

/** Ends a job its owner still holds. */
export async function finishSyncJob(
  db: Db,
  jobId: number,
  owner: string,
  outcome: { state: "done" | "failed" | "queued"; result?: unknown; error?: string },
): Promise<boolean> {
  const rows = await db`
    UPDATE sync_jobs
    SET state = ${outcome.state}, result = ${JSON.stringify(outcome.result ?? null)}::text::jsonb,
        error = ${outcome.error ?? null}, lease_until = NULL,
        finished_at = CASE WHEN ${outcome.state} = 'queued' THEN NULL ELSE now() END
    WHERE id = ${jobId} AND lease_owner = ${owner} AND state = 'running'
    RETURNING 1`;
  return rows.length > 0;
}

/** A job by id. */
export async function selectSyncJob(db: Db, jobId: number): Promise<SyncJobRow | null> {
  const [job] = await db<SyncJobRow>`SELECT * FROM sync_jobs WHERE id = ${jobId}`;
  return job ?? null;
}

/** The space's latest jobs, newest first. */
export function selectRecentSyncJobs(db: Db, wikiId: string, limit = 5): Promise<SyncJobRow[]> {
  return db<SyncJobRow>`
    SELECT * FROM sync_jobs WHERE wiki_id = ${wikiId} ORDER BY id DESC LIMIT ${limit}`;
}

/** What freshness readers see of a synced space: its last commit, time and failures. */
export type SyncFreshness = {
  last_commit: string | null;
  last_synced_at: Date | null;
  failures: number;
  last_error: string | null;
};

/** The freshness of a space, or null when it is not synced from Git. */
export async function selectSyncFreshness(
  db: Db,
  wikiId: string,
): Promise<SyncFreshness | null> {
  const [row] = await db<SyncFreshness>`
    SELECT last_commit, last_synced_at, failures, last_error
    FROM git_sources WHERE wiki_id = ${wikiId}`;
  return row ?? null;
}

function parseFiles(value: unknown): Record<string, string> {
  if (typeof value === "string") return JSON.parse(value);
  return (value ?? {}) as Record<string, string>;
}

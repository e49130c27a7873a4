import type { Need } from "../access/access_policy.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { notConnected } from "./connect_source.ts";
import { type SyncOptions, syncSpace } from "./run_sync.ts";
import {
  claimSyncJob,
  enqueueSyncJob,
  finishSyncJob,
  renewSyncLease,
  selectGitSource,
  selectSyncJob,
  type SyncJobRow,
} from "./store.ts";

/**
 * What starting a sync needs of the caller, on every surface (the app's Sync now and
 * `POST /api/v1/spaces/{id}/sync`): a role that writes the space, since a sync writes the Git
 * folder's pages over the space's. A viewer may read the sync's state, not start one.
 */
export const SYNC_NOW_NEED: Need = "write";

/**
 * Sync now: queues a manual sync of a connected space and runs it in this request. `ran` is the
 * job as it ended; null when another sync of the space holds the lease, and `queued` then waits
 * behind it. Not connected: `notConnected`.
 */
export async function syncNow(
  deps: Pick<Deps, "db" | "embedder" | "log" | "config">,
  owner: string,
  wikiId: string,
): Promise<{ queued: SyncJobRow; ran: SyncJobRow | null }> {
  if (!await selectGitSource(deps.db, wikiId)) throw notConnected(wikiId);
  const queued = await enqueueSyncJob(deps.db, wikiId, "manual");
  return { queued, ran: await runSyncJob(deps, owner, { jobId: queued.id }) };
}

/** A job claimed this many times without finishing (its processes died) is given up. */
const MAX_ATTEMPTS = 3;

/** A name for this process in `lease_owner`: host, pid and a random part. */
export function processOwner(): string {
  let host = "host";
  try {
    host = Deno.hostname();
  } catch { /* no --allow-sys */ }
  return `${host}:${Deno.pid}:${crypto.randomUUID().slice(0, 8)}`;
}

/**
 * Claims one job (the next due, or `jobId`) and runs it under a lease renewed every third of
 * its length, so a long sync keeps its job and a dead process's job is free again once the
 * lease runs out. Returns the job as it ended, or null when there was none to claim.
 */
export async function runSyncJob(
  deps: Pick<Deps, "db" | "embedder" | "log" | "config">,
  owner: string,
  options: SyncOptions & { jobId?: number } = {},
): Promise<SyncJobRow | null> {
  const lease = deps.config.sync.leaseSeconds;
  const job = await claimSyncJob(deps.db, owner, lease, options.jobId ?? null);
  if (!job) return null;
  if (job.attempts > MAX_ATTEMPTS) {
    await finishSyncJob(deps.db, job.id, owner, {
      state: "failed",
      error: `Given up after ${MAX_ATTEMPTS} attempts that did not finish`,
    });
    return await selectSyncJob(deps.db, job.id);
  }
  const renew = setInterval(() => {
    renewSyncLease(deps.db, job.id, owner, lease).catch((error) =>
      deps.log.warn("sync lease not renewed", { job: job.id, error: String(error) })
    );
  }, Math.max(100, (lease * 1000) / 3));
  try {
    const summary = await syncSpace(deps, job.wiki_id, options);
    await finishSyncJob(deps.db, job.id, owner, { state: "done", result: summary });
  } catch (error) {
    const reason = error instanceof AppError ? error.detail : String(error);
    await finishSyncJob(deps.db, job.id, owner, { state: "failed", error: reason });
  } finally {
    clearInterval(renew);
  }
  return await selectSyncJob(deps.db, job.id);
}

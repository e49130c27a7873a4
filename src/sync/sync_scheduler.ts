import type { Deps } from "../deps.ts";
import { processOwner, runSyncJob } from "./sync_jobs.ts";
import { enqueueDueSyncs } from "./store.ts";

/** A running scheduler; `stop` waits for the job in hand to end. */
export type SyncScheduler = { owner: string; stop(): Promise<void> };

/**
 * The loop every server process runs (unless `SYNC_SCHEDULER=false`): every
 * `SYNC_POLL_SECONDS` it queues the spaces whose schedule is due, then claims and runs jobs
 * until none is left. Several processes share the work through the job table's leases.
 */
export function startSyncScheduler(
  deps: Pick<Deps, "db" | "embedder" | "log" | "config">,
  owner = processOwner(),
): SyncScheduler {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      await enqueueDueSyncs(deps.db);
      while (!stopped && await runSyncJob(deps, owner)) { /* next job */ }
    } catch (error) {
      deps.log.warn("sync scheduler", { error: String(error) });
    }
    if (!stopped) timer = setTimeout(loop, deps.config.sync.pollSeconds * 1000);
  };
  const loop = () => {
    running = tick();
  };
  timer = setTimeout(loop, 0);
  return {
    owner,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

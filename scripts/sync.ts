/**
 * `deno task sync <space>`: syncs a space from its Git repository now, through the job table
 * like the scheduler (a sync already running in a server process is left to finish), and
 * prints what it did.
 */
import { loadConfig } from "../src/config/config.ts";
import { createLog } from "../src/lib/log.ts";
import { openDeps } from "../src/server.ts";
import { enqueueSyncJob, selectGitSource } from "../src/sync/store.ts";
import { processOwner, runSyncJob } from "../src/sync/sync_jobs.ts";

const USAGE = "usage: deno task sync <space>";

try {
  const wikiId = Deno.args[0];
  if (!wikiId || wikiId.startsWith("-")) throw new Error(USAGE);
  const config = loadConfig(Deno.env.toObject());
  const deps = await openDeps(config, createLog("warn"));
  try {
    if (!await selectGitSource(deps.db, wikiId)) {
      throw new Error(`Space "${wikiId}" is not connected to a Git repository`);
    }
    const queued = await enqueueSyncJob(deps.db, wikiId, "manual");
    const job = await runSyncJob(deps, processOwner(), { jobId: queued.id });
    if (!job) {
      console.log(`A sync of "${wikiId}" is already running (job ${queued.id}): left to finish`);
    } else if (job.state === "done") {
      const r = (typeof job.result === "string" ? JSON.parse(job.result) : job.result) as Record<
        string,
        unknown
      >;
      console.log(
        `${wikiId} at ${String(r.commit).slice(0, 12)} (${r.status}): ${r.added} added, ` +
          `${r.updated} updated, ${r.renamed} renamed, ${r.deleted} deleted, ` +
          `${r.unchanged} unchanged, ${(r.failed as unknown[]).length} failed`,
      );
      for (const f of r.failed as { name: string; error: string }[]) {
        console.log(`  ${f.name}: ${f.error}`);
      }
    } else {
      throw new Error(job.error ?? "the sync failed");
    }
  } finally {
    await deps.db.close();
  }
} catch (error) {
  console.error(`sync failed: ${error instanceof Error ? error.message : String(error)}`);
  Deno.exit(1);
}

/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
/**
 * The worker large pages are rendered in (`render_threads.ts`): it runs the same `runJob` the
 * server's thread would, so a 1 MB page's few hundred ms of parsing never hold the event loop
 * (issue 26.3). One message in (`{ id, job }`), one out (`{ id, result }` or `{ id, error }`).
 */
import { type RenderJob, runJob } from "./render_job.ts";

self.onmessage = (event: MessageEvent<{ id: number; job: RenderJob }>) => {
  const { id, job } = event.data;
  try {
    self.postMessage({ id, result: runJob(job) });
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};

import { type JobResult, type RenderJob, runJob } from "./render_job.ts";

/**
 * Where large pages' rendering jobs ran: in the render worker, or in the server's own thread
 * (where workers are not available, as on hosts without Web Workers). Tests read it.
 */
export const renderThreads = { worker: 0, inThread: 0 };

/** Runs one job, in the worker when one is available. */
export type RunJob = <J extends RenderJob>(job: J) => Promise<JobResult<J>>;

type Waiting = {
  job: RenderJob;
  resolve(result: unknown): void;
  reject(error: Error): void;
};

let worker: Worker | null = null;
/** No worker can be started here (no `Worker`, or its module failed to load): jobs run in-thread. */
let unavailable = typeof Worker !== "function";
/** The running worker has answered once: an error after that is not a failure to start. */
let answered = false;
let holders = 0;
let nextId = 1;
const waiting = new Map<number, Waiting>();

/**
 * Runs `work` with a worker for its jobs (a page's link scan, then its render): the worker
 * starts on first use and ends when nothing holds it, so an idle server keeps no thread and a
 * process (a test, a script) can end. Large pages render rarely (their HTML is kept), so a
 * worker's start (a few tens of ms, on its own thread) is paid once per first view.
 */
export async function withRenderThread<T>(work: (run: RunJob) => Promise<T>): Promise<T> {
  holders++;
  try {
    return await work(run);
  } finally {
    if (--holders === 0) stopWorker();
  }
}

/**
 * Starts the worker and keeps it for the life of the process (the server calls it): starting a
 * worker holds the calling thread for tens of ms (a new V8 isolate), so a server pays that once,
 * at start, not on each first view of a large page. Resolves to false when no worker could be
 * started: large pages then render in the server's thread (see docs/reliability.md).
 */
export async function keepRenderWorker(): Promise<boolean> {
  holders++;
  await run({ op: "scan", markdown: "", path: "" });
  return !unavailable;
}

const run: RunJob = <J extends RenderJob>(job: J) => {
  const thread = startWorker();
  if (!thread) return Promise.resolve(inThread(job));
  const id = nextId++;
  return new Promise<JobResult<J>>((resolve, reject) => {
    waiting.set(id, { job, resolve: resolve as (r: unknown) => void, reject });
    thread.postMessage({ id, job });
  });
};

function inThread<J extends RenderJob>(job: J): JobResult<J> {
  renderThreads.inThread++;
  return runJob(job);
}

function startWorker(): Worker | null {
  if (worker || unavailable) return worker;
  try {
    worker = new Worker(new URL("./render_worker.ts", import.meta.url), { type: "module" });
  } catch {
    unavailable = true;
    return null;
  }
  answered = false;
  worker.onmessage = (event: MessageEvent<{ id: number; result?: unknown; error?: string }>) => {
    answered = true;
    const { id, result, error } = event.data;
    const job = waiting.get(id);
    if (!job) return;
    waiting.delete(id);
    renderThreads.worker++;
    if (error !== undefined) job.reject(new Error(error));
    else job.resolve(result);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    if (!answered) unavailable = true;
    stopWorker();
  };
  return worker;
}

/** Ends the worker; jobs it had not answered run in-thread. */
function stopWorker(): void {
  worker?.terminate();
  worker = null;
  const left = [...waiting.values()];
  waiting.clear();
  for (const job of left) {
    try {
      job.resolve(inThread(job.job));
    } catch (error) {
      job.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

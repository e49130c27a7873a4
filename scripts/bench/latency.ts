import { quantile, round } from "../../src/search/metrics.ts";

/** Latency and throughput of one measured run. */
export type Latency = {
  concurrency: number;
  calls: number;
  seconds: number;
  calls_per_s: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
};

/** How long a run may take and how many calls it warms up with. */
export type RunLimits = { maxSeconds?: number; warmup?: number };

/**
 * Runs `call` over `inputs` with `concurrency` callers that each take the next input as soon
 * as their previous call returns (a closed loop, as clients waiting for answers behave), and
 * reports per-call latency quantiles and calls per second. After `maxSeconds` no new call
 * starts, so slow stores answer fewer inputs instead of stretching the run.
 */
export async function measureLatency<T>(
  inputs: T[],
  call: (input: T) => Promise<unknown>,
  concurrency: number,
  limits: RunLimits = {},
): Promise<Latency> {
  for (const input of inputs.slice(0, limits.warmup ?? 5)) await call(input);
  const deadline = performance.now() + (limits.maxSeconds ?? Infinity) * 1000;
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const caller = async () => {
    while (next < inputs.length && performance.now() < deadline) {
      const input = inputs[next++]!;
      const t = performance.now();
      await call(input);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  const seconds = (performance.now() - started) / 1000;
  return {
    concurrency,
    calls: latencies.length,
    seconds: round(seconds),
    calls_per_s: round(latencies.length / seconds),
    p50_ms: round(quantile(latencies, 0.5)),
    p95_ms: round(quantile(latencies, 0.95)),
    p99_ms: round(quantile(latencies, 0.99)),
  };
}

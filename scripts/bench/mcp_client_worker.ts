/**
 * The plain JSON-RPC client of `measureMcpOverhead` in a Web Worker: its own V8 isolate, heap,
 * event loop and thread, as a client in a process of its own has, so that its `fetch`, the
 * parse of each answer and its garbage are not the server's. Each message runs one leg: the
 * queries one at a time (after `warmup` of them), answered with the leg's latency and the
 * process's CPU time per call.
 */
import { connectPlainSearch } from "./plain_client.ts";
import process from "node:process";
import { measureLatency } from "./latency.ts";

type Leg = { base: string; wikiId: string; queries: string[]; warmup: number };

let client: Awaited<ReturnType<typeof connectPlainSearch>> | undefined;

self.onmessage = async (event: MessageEvent<Leg>) => {
  const { base, wikiId, queries, warmup } = event.data;
  try {
    client ??= await connectPlainSearch(base, wikiId);
    for (const query of queries.slice(0, warmup)) await client.search(query);
    // The process's CPU time: this thread's and the server's (one process), warm-up left out.
    const before = process.cpuUsage();
    const latency = await measureLatency(queries, client.search, 1, { warmup: 0 });
    const used = process.cpuUsage(before);
    self.postMessage({ latency, cpu: (used.user + used.system) / 1000 / latency.calls });
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};

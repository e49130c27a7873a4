import type { McpOverhead } from "./mcp_overhead.ts";
import type { Machine } from "./machine.ts";
import type { PeerComparison } from "./peer_comparison.ts";
import type { StepProfile } from "./profile.ts";
import type { ServerMemory } from "./server_memory.ts";
import type { TierFigures } from "./tiers.ts";

/** What `deno task bench` writes, as far as the report reads it. */
export type BenchResults = {
  measured_at: string;
  duration_s: number;
  machine: Machine & { load_average_at_end: number[] };
  ingestion: Record<string, unknown>[];
  peers: PeerComparison | null;
  tiers: (TierFigures & { bulk_load_s: number })[];
  mcp: (McpOverhead & { chunks: number })[];
  vector_index: Record<string, unknown>[];
  profiles: {
    store: string;
    chunks: number;
    calls_c1: number;
    calls_c8: number;
    steps_c1: StepProfile;
    steps_c8: StepProfile;
  }[];
  memory: (ServerMemory & { chunks: number })[];
};

/**
 * The verdict asked of the bench (issue 16), PostgreSQL at its largest size: c = 1 p50,
 * c = 8 p95 and searches per second at c = 8.
 */
export const TARGETS = { c1P50Ms: 10, c8P95Ms: 30, c8PerS: 300 };

/** Prints the results as markdown tables, the shape docs/performance.md uses. */
export function printReport(r: BenchResults): void {
  const ms = (x: number) => x.toFixed(1);
  const m = r.machine;
  const lines: string[] = [];
  const table = (head: string[], rows: (string | number)[][]) => {
    lines.push("", `| ${head.join(" | ")} |`, `| ${head.map(() => "---").join(" | ")} |`);
    for (const row of rows) lines.push(`| ${row.join(" | ")} |`);
  };
  lines.push(
    `Measured ${r.measured_at} in ${Math.round(r.duration_s)} s on ${m.cpu}, ${m.cores} cores, ` +
      `${m.ram_gib} GiB, ${m.kernel}; Deno ${m.deno}; ${m.postgres ?? "no PostgreSQL"} ` +
      `(pgvector ${m.pgvector ?? "-"}); PGlite ${m.pglite ?? "-"}; load average ` +
      `${m.load_average_at_start.map((x) => x.toFixed(1)).join(" ")} at start, ` +
      `${m.load_average_at_end.map((x) => x.toFixed(1)).join(" ")} at end.`,
  );
  table(
    ["Store", "Set", "Pages", "Chunks", "Seconds", "Pages/s"],
    r.ingestion.map((
      i,
    ) =>
      [i.store, i.set, i.pages, i.chunks, i.seconds, (i.pages_per_s as number).toFixed(1)] as (
        | string
        | number
      )[]
    ),
  );
  table(
    [
      "Store",
      "Chunks",
      "Vector leg",
      "Concurrency",
      "Calls",
      "p50 ms",
      "p95 ms",
      "p99 ms",
      "Calls/s",
    ],
    r.tiers.flatMap((t) =>
      t.search.map((s) => [
        t.store,
        t.chunks,
        t.vector_leg,
        s.concurrency,
        s.calls,
        ms(s.p50_ms),
        ms(s.p95_ms),
        ms(s.p99_ms),
        s.calls_per_s.toFixed(1),
      ])
    ),
  );
  table(
    ["Store", "Chunks", "Postings", "Index MiB", "Bytes/posting", "First search ms", "RSS MiB"],
    r.tiers.map((t) => [
      t.store,
      t.chunks,
      t.lexical_index.postings,
      (t.lexical_index.bytes / 2 ** 20).toFixed(1),
      t.lexical_index.bytes_per_posting.toFixed(1),
      ms(t.lexical_index.first_search_ms),
      `${t.lexical_index.rss_before_mib.toFixed(0)} → ${t.lexical_index.rss_after_mib.toFixed(0)}`,
    ]),
  );
  table(
    ["Store", "Chunks", "Ask calls", "p50 ms", "p95 ms", "p99 ms"],
    r.tiers.map((t) => [
      t.store,
      t.chunks,
      t.ask.calls,
      ms(t.ask.p50_ms),
      ms(t.ask.p95_ms),
      ms(t.ask.p99_ms),
    ]),
  );
  table(
    [
      "Store",
      "Chunks",
      "Direct p50 / p95 ms, calls/s",
      "MCP, SDK client: p50 / p95 ms, calls/s",
      "MCP/direct p50, SDK client",
      "MCP, plain JSON-RPC client: p50 / p95 ms",
      "MCP/direct p50, plain client",
      "MCP/direct p50, plain client in its own worker",
      "Server's own time p50 ms, / direct p50",
      "HTTP alone p50 ms",
      "SDK client's own time ms, MCP/direct with it taken out",
      "CPU ms/call direct / SDK / plain / apart",
    ],
    r.mcp.map((x) => [
      x.store,
      x.chunks,
      `${ms(x.direct.p50_ms)} / ${ms(x.direct.p95_ms)}, ${x.direct.calls_per_s.toFixed(1)}`,
      `${ms(x.mcp.p50_ms)} / ${ms(x.mcp.p95_ms)}, ${x.mcp.calls_per_s.toFixed(1)}`,
      x.ratio_p50.toFixed(2),
      x.mcp_plain ? `${ms(x.mcp_plain.p50_ms)} / ${ms(x.mcp_plain.p95_ms)}` : "",
      x.ratio_plain_p50?.toFixed(2) ?? "",
      x.ratio_apart_p50?.toFixed(2) ?? "",
      x.server_p50_ms === undefined
        ? ""
        : `${ms(x.server_p50_ms)}, ${x.ratio_server_p50.toFixed(2)}`,
      x.http_floor_p50_ms === undefined ? "" : ms(x.http_floor_p50_ms),
      x.sdk_client_own_ms === undefined
        ? ""
        : `${x.sdk_client_own_ms.toFixed(2)}, ${x.ratio_sdk_own_out_p50.toFixed(2)}`,
      x.cpu_ms_per_call
        ? [
          x.cpu_ms_per_call.direct,
          x.cpu_ms_per_call.mcp,
          x.cpu_ms_per_call.mcp_plain,
          x.cpu_ms_per_call.mcp_apart,
        ].join(" / ")
        : "",
    ]),
  );
  table(
    ["Engine", "nDCG@10", "R@10", "MRR@10", "p50 ms", "p95 ms", "p50 / ours", "nDCG / ours"],
    (r.peers?.engines ?? []).map((e) => [
      e.engine,
      e.ndcg_at_10.toFixed(4),
      e.recall_at_10.toFixed(4),
      e.mrr_at_10.toFixed(4),
      ms(e.latency.p50_ms),
      ms(e.latency.p95_ms),
      e.p50_vs_ours.toFixed(2),
      e.ndcg_vs_ours.toFixed(2),
    ]),
  );
  table(
    [
      "Store",
      "Rows",
      "Distinct vectors",
      "Index bytes",
      "Bytes/vector",
      "GiB per million",
      "Build s",
    ],
    r.vector_index.map((v) => [
      v.store as string,
      v.rows as number,
      v.distinct_vectors as number,
      v.bytes as number,
      Math.round(v.bytes_per_vector as number),
      (v.gib_per_million_vectors as number).toFixed(2),
      v.seconds as number,
    ]),
  );
  for (const p of r.profiles) {
    lines.push(
      "",
      `Profile on ${p.store} at ${p.chunks} chunks (${p.calls_c1} searches at c=1, ` +
        `${p.calls_c8} at c=8; ms per step):`,
    );
    table(
      ["Step", "Per search", "c=1 p50", "c=1 p95", "c=8 p50", "c=8 p95"],
      Object.keys(p.steps_c1).map((k) => [
        k,
        String(p.steps_c1[k]!.per_search ?? ""),
        ms(p.steps_c1[k]!.p50_ms),
        ms(p.steps_c1[k]!.p95_ms),
        ms(p.steps_c8[k]?.p50_ms ?? NaN),
        ms(p.steps_c8[k]?.p95_ms ?? NaN),
      ]),
    );
  }
  table(
    [
      "Store",
      "Chunks",
      "Start s",
      "Idle RSS MiB",
      "Peak RSS under load MiB",
      "VmHWM MiB",
      "Load calls/s",
    ],
    r.memory.map((x) => [
      x.store,
      x.chunks,
      x.start_s.toFixed(1),
      x.idle_rss_mib.toFixed(0),
      x.load_peak_rss_mib.toFixed(0),
      x.peak_hwm_mib.toFixed(0),
      x.load.calls_per_s.toFixed(1),
    ]),
  );
  const largest = r.tiers.filter((t) => t.store === "postgres").at(-1);
  const c1 = largest?.search.find((s) => s.concurrency === 1);
  const c8 = largest?.search.find((s) => s.concurrency === 8);
  if (largest && c1 && c8) {
    const verdict = (what: string, value: string, target: string, met: boolean) =>
      `${what}: ${value} (target ${target}): ${met ? "met" : "not met"}`;
    lines.push(
      "",
      `Verdict, search at ${largest.chunks} chunks on PostgreSQL:`,
      "- " +
        verdict(
          "c=1 p50",
          `${ms(c1.p50_ms)} ms`,
          `${TARGETS.c1P50Ms} ms`,
          c1.p50_ms <= TARGETS.c1P50Ms,
        ),
      "- " +
        verdict(
          "c=8 p95",
          `${ms(c8.p95_ms)} ms`,
          `${TARGETS.c8P95Ms} ms`,
          c8.p95_ms <= TARGETS.c8P95Ms,
        ),
      "- " +
        verdict(
          "c=8 throughput",
          `${c8.calls_per_s.toFixed(1)}/s`,
          `${TARGETS.c8PerS}/s`,
          c8.calls_per_s >= TARGETS.c8PerS,
        ),
    );
  }
  console.log(lines.join("\n"));
}

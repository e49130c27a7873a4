/**
 * The load generator, run as its own process by the load check: mixed traffic (search,
 * get_page, ask, list; over MCP and REST; public and with a token) at a fixed rate, open loop
 * (each request leaves on schedule, whether or not earlier ones have answered).
 *
 *   deno run -A tests/reliability/load_client.ts '{"url":…,"rate":20,"seconds":30,…}'
 *
 * Prints one JSON object: counts by status and by kind, and latency percentiles in ms.
 */
import { percentile } from "./harness.ts";

type Options = {
  url: string;
  rate: number;
  seconds: number;
  token: string;
  publicWiki: string;
  space: string;
  pages: string[];
  /** Requests in flight beyond this are not sent and count as errors ("overload"). */
  maxInFlight?: number;
};

const options = JSON.parse(Deno.args[0]!) as Options;
const QUERIES = ["restart", "deploy backup", "cache index", "failover replica", "schema migration"];
const QUESTIONS = ["How do I restart the cache safely?", "What should I check before failover?"];

type Call = { kind: string; send: () => Promise<Response> };

function mcp(path: string, tool: string, args: Record<string, unknown>, token?: string): Call {
  return {
    kind: `mcp ${tool}`,
    send: () =>
      fetch(options.url + path, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "MCP-Protocol-Version": "2025-06-18",
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: tool, arguments: args },
        }),
      }),
  };
}

function rest(kind: string, path: string, init: RequestInit = {}): Call {
  return { kind: `rest ${kind}`, send: () => fetch(options.url + path, init) };
}

/** The traffic mix: i-th request of the run. */
function callOf(i: number): Call {
  const q = QUERIES[i % QUERIES.length]!;
  const page = options.pages[i % options.pages.length]!;
  const w = options.publicWiki;
  const auth = { Authorization: `Bearer ${options.token}` };
  const mix: Call[] = [
    mcp(`/mcp/w/${w}/`, "search", { query: q }),
    rest("search", `/api/v1/public/wikis/${w}/search?q=${encodeURIComponent(q)}`),
    mcp("/mcp/", "search", { space: options.space, query: "restart" }, options.token),
    mcp(`/mcp/w/${w}/`, "get_page", { page }),
    rest("get_page", `/api/v1/public/wikis/${w}/pages/${encodeURIComponent(page)}`),
    mcp("/mcp/", "get_page", { space: options.space, page: "Runbook" }, options.token),
    rest("list_pages", `/api/v1/public/wikis/${w}/pages?limit=20`),
    mcp("/mcp/hub/", "list_wikis", {}),
    rest("list_spaces", "/api/v1/spaces", { headers: auth }),
    i % 2 === 0
      ? mcp(`/mcp/w/${w}/`, "ask", { question: QUESTIONS[i % 2]! })
      : rest("ask", `/api/v1/public/wikis/${w}/ask`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ question: QUESTIONS[i % 2]! }),
      }),
  ];
  return mix[i % mix.length]!;
}

const total = Math.round(options.rate * options.seconds);
const maxInFlight = options.maxInFlight ?? 64;
const latencies: number[] = [];
const byKind = new Map<string, number[]>();
const statuses = new Map<string, number>();
let inFlight = 0;
const count = (status: string) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

const started = performance.now();
const pending: Promise<void>[] = [];
for (let i = 0; i < total; i++) {
  const due = started + (i * 1000) / options.rate;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  if (inFlight >= maxInFlight) {
    count("overload");
    continue;
  }
  const call = callOf(i);
  inFlight++;
  pending.push((async () => {
    const t0 = performance.now();
    try {
      const res = await call.send();
      const text = await res.text();
      // A tool that failed is a 200 with isError: count it apart.
      const status = res.status === 200 && /"isError":true/.test(text)
        ? "tool error"
        : String(res.status);
      count(status);
    } catch (error) {
      count(`network: ${(error as Error).name}`);
    } finally {
      const ms = performance.now() - t0;
      latencies.push(ms);
      byKind.set(call.kind, [...byKind.get(call.kind) ?? [], ms]);
      inFlight--;
    }
  })());
}
await Promise.all(pending);
const seconds = (performance.now() - started) / 1000;
const round = (n: number) => Math.round(n * 10) / 10;
const ok = [...statuses].filter(([s]) => /^2\d\d$/.test(s)).reduce((n, [, c]) => n + c, 0);
console.log(JSON.stringify({
  sent: total,
  seconds: round(seconds),
  achieved_rate: round(total / seconds),
  ok,
  errors: total - ok,
  statuses: Object.fromEntries(statuses),
  p50: round(percentile(latencies, 50)),
  p95: round(percentile(latencies, 95)),
  p99: round(percentile(latencies, 99)),
  max: round(Math.max(...latencies)),
  by_kind: Object.fromEntries(
    [...byKind].sort().map(([k, l]) => [k, {
      n: l.length,
      p50: round(percentile(l, 50)),
      p95: round(percentile(l, 95)),
    }]),
  ),
}));

/**
 * `deno task bench:mcp [--queries N]`: the protocol's cost. Imports SQuAD into a throwaway
 * store, then runs the same queries through `searchWikis` directly and through MCP `search`
 * on `/mcp/w/<id>/` over loopback HTTP with the real SDK client, one at a time, and prints
 * calls per second and p50/p95 for both, and their ratio. Writes bench/out/mcp.json.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { parseArgs } from "node:util";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config/config.ts";
import { openThrowawayStore } from "../src/db/throwaway.ts";
import type { Deps } from "../src/deps.ts";
import { importPages } from "../src/importer/import_pages.ts";
import { readSources } from "../src/importer/read_sources.ts";
import { createLog } from "../src/lib/log.ts";
import { createEmbedder } from "../src/search/create_embedder.ts";
import { quantile, round } from "../src/search/metrics.ts";
import { searchWikis } from "../src/search/search_wikis.ts";
import { ensureVectorIndex } from "../src/search/vector_index.ts";
import { createWiki } from "../src/wikis/wikis.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { queries: { type: "string", default: "500" } },
});
const set = new URL("../../shared/eval/squad/", import.meta.url).pathname;
const env = Deno.env.toObject();
const { db, drop } = await openThrowawayStore(loadConfig(env));
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: () => {} },
  () => new Response(),
);
const port = (server.addr as Deno.NetAddr).port;
await server.shutdown();
// A benchmark, not a client: no budget.
const config = loadConfig({
  RATE_LIMIT_ANON_PER_MINUTE: "100000000",
  ...env,
  PORT: String(port),
  BASE_URL: `http://localhost:${port}`,
});
try {
  const embedder = await createEmbedder(config.embedding);
  await ensureVectorIndex(db, embedder);
  const deps: Deps = { config, db, log: createLog("error"), embedder };
  await createWiki(db, { id: "squad", visibility: "public" });
  await importPages(deps, "squad", await readSources(`${set}pages.jsonl`));
  const queries: string[] = (await Deno.readTextFile(`${set}queries.jsonl`)).split("\n").filter(
    Boolean,
  )
    .map((l) => JSON.parse(l).query).slice(0, Number(values.queries));

  const time = async (call: (q: string) => Promise<unknown>) => {
    for (const q of queries.slice(0, 20)) await call(q); // warm up
    const latencies: number[] = [];
    const started = performance.now();
    for (const q of queries) {
      const t = performance.now();
      await call(q);
      latencies.push(performance.now() - t);
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      calls_per_s: round(queries.length / seconds),
      p50_ms: round(quantile(latencies, 0.5)),
      p95_ms: round(quantile(latencies, 0.95)),
    };
  };
  const direct = await time((q) => searchWikis(deps, ["squad"], { query: q, limit: 10 }));

  const app = createApp(deps);
  const http = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, app.fetch);
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://localhost:${port}/mcp/w/squad/`)),
  );
  const mcp = await time(async (q) => {
    const result = await client.callTool({ name: "search", arguments: { query: q, limit: 10 } });
    if (result.isError) throw new Error(JSON.stringify(result.content));
  });
  await client.close();
  await http.shutdown();

  const figures = {
    store: db.kind,
    queries: queries.length,
    direct,
    mcp,
    ratio_p50: round(mcp.p50_ms / direct.p50_ms),
    ratio_throughput: round(direct.calls_per_s / mcp.calls_per_s),
  };
  console.table({ direct, mcp });
  console.log(JSON.stringify(figures));
  await Deno.mkdir(new URL("../bench/out/", import.meta.url), { recursive: true });
  await Deno.writeTextFile(
    new URL(`../bench/out/mcp_${db.kind}.json`, import.meta.url),
    JSON.stringify(figures, null, 2),
  );
} finally {
  await drop();
}

/**
 * `deno run -A scripts/bench/legs_at_size.ts [--chunks 10000] [--queries 200] [--no-postgres]
 * [--no-pglite] [--eval-dir DIR]`: hybrid search against its lexical leg alone, with the configured default
 * (offline) embedder, on a bench wiki grown to `--chunks` (SQuAD and SciFact pages, then
 * copies, as `deno task bench` grows it), on PostgreSQL (a database `wiki_legs` of its own on
 * DATABASE_URL's server, so a running `deno task bench` is not disturbed) and PGlite. Each
 * query is ranked by both modes back to back, in alternating order, at concurrency 1; prints
 * p50 and p95 of each and their ratio (issue 16: hybrid p50 at most 1.5× the lexical leg's).
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config/config.ts";
import type { Db } from "../../src/db/db.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openPglite } from "../../src/db/pglite.ts";
import { openPostgres } from "../../src/db/postgres.ts";
import type { Deps } from "../../src/deps.ts";
import { createLog } from "../../src/lib/log.ts";
import { createEmbedder } from "../../src/search/create_embedder.ts";
import { quantile, round } from "../../src/search/metrics.ts";
import { rankPages, type SearchMode } from "../../src/search/search_wikis.ts";
import { ensureVectorIndex } from "../../src/search/vector_index.ts";
import { createWiki } from "../../src/wikis/wikis.ts";
import { bulkLoadPages } from "./bulk_load.ts";
import { asSources, interleave, readEvalSets, replicaPages } from "./corpus.ts";

const DATABASE = "wiki_legs";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    chunks: { type: "string", default: "10000" },
    queries: { type: "string", default: "200" },
    "no-postgres": { type: "boolean", default: false },
    "no-pglite": { type: "boolean", default: false },
    "eval-dir": {
      type: "string",
      default: new URL("../../../shared/eval", import.meta.url).pathname,
    },
  },
});
const size = Number(values.chunks);
const env = Deno.env.toObject();
const config = loadConfig({ ...env, EMBEDDER: "offline" });
const embedder = await createEmbedder(config.embedding);
const log = createLog("error");
const sets = await readEvalSets(values["eval-dir"]);
const base = [
  ...sets.squad.pages.map((p) => ({ ...p, path: `squad/${p.path}` })),
  ...sets.scifact.pages.map((p) => ({ ...p, path: `scifact/${p.path}` })),
];
const queries = interleave(
  sets.scifact.queries.map((q) => q.query),
  sets.squad.queries.map((q) => q.query),
).slice(0, Number(values.queries));

type Store = { name: string; db: Db; drop: () => Promise<void> };
const stores: Store[] = [];
if (!values["no-postgres"] && env.DATABASE_URL) {
  const admin = openPostgres(env.DATABASE_URL, { max: 1 });
  await admin.exec(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.exec(`CREATE DATABASE ${DATABASE}`);
  const url = new URL(env.DATABASE_URL);
  url.pathname = `/${DATABASE}`;
  const db = openPostgres(url.toString());
  stores.push({
    name: "postgres",
    db,
    drop: async () => {
      await db.close();
      await admin.exec(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
      await admin.close();
    },
  });
}
if (!values["no-pglite"]) {
  const dir = await Deno.makeTempDir({ prefix: "wiki_legs_" });
  const db = await openPglite(dir);
  stores.push({
    name: "pglite",
    db,
    drop: async () => {
      await db.close();
      await Deno.remove(dir, { recursive: true });
    },
  });
}

const rows = [];
for (const store of stores) {
  try {
    await migrate(store.db);
    await ensureVectorIndex(store.db, embedder);
    await createWiki(store.db, { id: "bench" });
    const deps: Deps = { config, db: store.db, log, embedder };
    const sources = [...asSources(base), ...replicaPages(base, 0, size)];
    const loaded = await bulkLoadPages(deps, "bench", sources, { maxChunks: size });
    await store.db.exec("VACUUM ANALYZE");
    const ms: Record<SearchMode, number[]> = { lexical: [], hybrid: [], vector: [] };
    const modes: SearchMode[] = ["lexical", "hybrid"];
    for (const q of queries.slice(0, 10)) {
      for (const m of modes) await rankPages(deps, ["bench"], q, m);
    }
    for (const [i, q] of queries.entries()) {
      for (const m of i % 2 === 0 ? modes : [...modes].reverse()) {
        const t = performance.now();
        await rankPages(deps, ["bench"], q, m);
        ms[m].push(performance.now() - t);
      }
    }
    const p = (m: SearchMode, q: number) => round(quantile(ms[m], q));
    rows.push({
      store: store.name,
      chunks: loaded.chunks,
      queries: queries.length,
      lexical_p50_ms: p("lexical", 0.5),
      hybrid_p50_ms: p("hybrid", 0.5),
      lexical_p95_ms: p("lexical", 0.95),
      hybrid_p95_ms: p("hybrid", 0.95),
      ratio_p50: round(p("hybrid", 0.5) / p("lexical", 0.5)),
      load: Deno.loadavg()[0],
    });
  } finally {
    await store.drop();
  }
}
console.table(rows);
console.log(JSON.stringify({ embedder: embedder.id, rows }));

/**
 * `deno task eval <dir> [--pages pages.jsonl] [--queries N] [--gate]`: imports a set's pages
 * into a throwaway store (in-memory PGlite, or a new database on DATABASE_URL's server), runs
 * every query through the production ranking, and prints Recall@1/5/10/100, MRR@10, nDCG@10
 * and latency for the lexical leg, the vector leg and hybrid; the last line is JSON.
 * `--gate` exits 1 when hybrid falls below the better single leg on nDCG@10 or Recall@5;
 * `--min metric=value` (repeatable) exits 1 when hybrid falls below the value.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config/config.ts";
import { openThrowawayStore } from "../src/db/throwaway.ts";
import type { Deps } from "../src/deps.ts";
import { importPages } from "../src/importer/import_pages.ts";
import { progressBar } from "../src/importer/progress_bar.ts";
import { readSources } from "../src/importer/read_sources.ts";
import { createLog } from "../src/lib/log.ts";
import { askWikis } from "../src/ask/ask.ts";
import { createEmbedder } from "../src/search/create_embedder.ts";
import { meanScores, quantile, round, scoreQuery } from "../src/search/metrics.ts";
import { rankPages, type SearchMode } from "../src/search/search_wikis.ts";
import { ensureVectorIndex } from "../src/search/vector_index.ts";
import { createWiki } from "../src/wikis/wikis.ts";

type Query = { id: string; query: string; gold: string[]; answers?: string[] };

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    pages: { type: "string" },
    queries: { type: "string" },
    gate: { type: "boolean", default: false },
    ask: { type: "boolean", default: false },
    min: { type: "string", multiple: true },
  },
});
const dir = positionals[0];
if (!dir) {
  console.error(
    "usage: deno task eval <dir> [--pages pages.jsonl] [--queries N] [--gate] [--min metric=value]",
  );
  Deno.exit(2);
}

const config = loadConfig(Deno.env.toObject());
const log = createLog("error");
const queries: Query[] = (await Deno.readTextFile(`${dir}/queries.jsonl`)).split("\n")
  .filter((l) => l.trim()).map((l) => JSON.parse(l))
  .slice(0, values.queries ? Number(values.queries) : undefined);
const pages = await readSources(values.pages ?? `${dir}/pages.jsonl`);

const { db, drop } = await openThrowawayStore(config);
try {
  const embedder = await createEmbedder(config.embedding);
  await ensureVectorIndex(db, embedder);
  const deps: Deps = { config, db, log, embedder };
  await createWiki(db, { id: "eval", visibility: "private" });
  const bar = progressBar("Importing");
  const started = performance.now();
  const summary = await importPages(deps, "eval", pages, {
    onProgress: (done, total) => bar(done, total, ""),
  });
  const importSeconds = (performance.now() - started) / 1000;
  console.log(
    `${summary.added} pages imported in ${importSeconds.toFixed(1)} s ` +
      `(${(summary.added / importSeconds).toFixed(0)} pages/s), ${summary.failed.length} failed; ` +
      `store ${db.kind}, embedder ${embedder.id}, ${queries.length} queries`,
  );
  if (values.ask) {
    const figures = await evaluateAnswers(deps);
    console.table({ ask: figures });
    console.log(JSON.stringify(figures));
    for (const rule of values.min ?? []) {
      const [metric, value] = rule.split("=");
      if (!((figures as Record<string, number>)[metric ?? ""]! >= Number(value))) {
        console.error(`gate: ${metric} is below ${value}`);
        Deno.exitCode = 1;
      }
    }
    Deno.exit();
  }
  const figures: Record<string, Record<string, number>> = {};
  for (const mode of ["lexical", "vector", "hybrid"] as SearchMode[]) {
    const scores = [];
    const latencies = [];
    for (const q of queries.slice(0, 10)) await rankPages(deps, ["eval"], q.query, mode); // warm up
    for (const q of queries) {
      const t = performance.now();
      const ranked = await rankPages(deps, ["eval"], q.query, mode);
      latencies.push(performance.now() - t);
      scores.push(scoreQuery(ranked.map((r) => r.path), q.gold));
    }
    figures[mode] = {
      ...meanScores(scores),
      p50_ms: round(quantile(latencies, 0.5)),
      p95_ms: round(quantile(latencies, 0.95)),
    };
  }
  console.table(figures);
  console.log(JSON.stringify(figures));
  for (const rule of values.min ?? []) {
    const [metric, value] = rule.split("=");
    const actual = figures.hybrid![metric ?? ""];
    if (actual === undefined || !(actual >= Number(value))) {
      console.error(`gate: hybrid ${metric} is ${actual}, below ${value}`);
      Deno.exitCode = 1;
    }
  }
  if (values.gate) {
    const { lexical, vector, hybrid } = figures as Record<string, Record<string, number>>;
    const failures = ["ndcg@10", "recall@5"].filter((k) =>
      hybrid![k]! < Math.max(lexical![k]!, vector![k]!)
    );
    if (failures.length > 0) {
      console.error(`gate: hybrid is below the better single leg on ${failures.join(", ")}`);
      Deno.exitCode = 1;
    }
  }
} finally {
  await drop();
}

/**
 * Runs every question through `askWikis` and measures how often a gold answer string is in
 * the answer, how often a gold page is cited, and the share of quotes found verbatim in their
 * page's markdown.
 */
async function evaluateAnswers(deps: Deps) {
  const markdown = new Map(
    (await deps.db<
      { path: string; markdown: string }
    >`SELECT path, markdown FROM pages WHERE wiki_id = 'eval'`)
      .map((r) => [r.path, r.markdown]),
  );
  let containsGold = 0;
  let goldCited = 0;
  let quotes = 0;
  let verbatim = 0;
  const latencies: number[] = [];
  const asked = queries.filter((q) => q.answers && q.answers.length > 0);
  for (const q of asked) {
    const t = performance.now();
    const answer = await askWikis(deps, ["eval"], { question: q.query });
    latencies.push(performance.now() - t);
    const text = answer.answer.toLowerCase();
    if (q.answers!.some((a) => text.includes(a.toLowerCase()))) containsGold++;
    if (answer.citations.some((c) => q.gold.includes(c.page))) goldCited++;
    for (const c of answer.citations) {
      quotes++;
      if (markdown.get(c.page)?.includes(c.quote)) verbatim++;
    }
  }
  return {
    questions: asked.length,
    answer_contains_gold: round(containsGold / Math.max(asked.length, 1)),
    gold_page_cited: round(goldCited / Math.max(asked.length, 1)),
    verbatim_quotes: round(quotes === 0 ? 1 : verbatim / quotes),
    citations_per_answer: round(quotes / Math.max(asked.length, 1)),
    p50_ms: round(quantile(latencies, 0.5)),
    p95_ms: round(quantile(latencies, 0.95)),
  };
}

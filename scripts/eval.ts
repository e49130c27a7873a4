/**
 * `deno task eval <dir> [--pages pages.jsonl] [--queries N] [--gate]`: imports a set's pages
 * into a throwaway store (in-memory PGlite, or a new database on DATABASE_URL's server), runs
 * every query through the production ranking, and prints Recall@1/5/10/100, MRR@10, nDCG@10
 * and latency for the lexical leg, the vector leg and hybrid; the last line is JSON.
 * `--gate` exits 1 when hybrid falls below the better single leg on nDCG@10 or Recall@5;
 * `--min metric=value` (repeatable) exits 1 when hybrid falls below the value (`leg.metric`, such
 * as `lexical.exact_top10`, for another leg). `--exact N` checks the in-memory lexical index
 * against the exhaustive SQL leg on N queries spread evenly over the set instead of all of them
 * (CI's gates: the exhaustive leg is most of a gate's database time).
 * `--ask` measures answers instead (see `evaluateAnswers`); there `--max metric=value` exits 1
 * when a figure is above the value; `--gate --ask` measures both on one import (CI's SQuAD gate),
 * each `--min` held by the report that has its metric, and `--features out.jsonl` writes each question's verdict
 * evidence, for fitting the verdict with scripts/fit_verdict.ts and scripts/fit_verdict_docs.ts
 * (docs/answers.md); with `EVAL_DUMP_PASSAGES=1` each line also carries the question and its
 * retrieved passages.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config/config.ts";
import { openThrowawayStore } from "../src/db/throwaway.ts";
import type { Deps } from "../src/deps.ts";
import { importPages } from "../src/importer/import_pages.ts";
import { progressBar } from "../src/importer/progress_bar.ts";
import { readSources } from "../src/importer/read_sources.ts";
import { createLog } from "../src/lib/log.ts";
import { assessQuestion } from "../src/ask/ask.ts";
import { answerability, featureVector } from "../src/ask/verdict.ts";
import { createEmbedder } from "../src/search/create_embedder.ts";
import { BM25 } from "../src/search/fusion.ts";
import { lexicalTopK } from "../src/search/lexical_cache.ts";
import { meanScores, quantile, round, scoreQuery } from "../src/search/metrics.ts";
import { rankPages, type SearchMode, searchWikis } from "../src/search/search_wikis.ts";
import { gluedForms, median, onGoldSection, sectionsOf, sourceSyntax } from "./answer_shape.ts";
import { selectBm25 } from "../src/search/store.ts";
import { ensureVectorIndex } from "../src/search/vector_index.ts";
import { createWiki } from "../src/wikis/wikis.ts";

type Query = {
  id: string;
  query: string;
  gold: string[];
  answers?: string[];
  /** false: the page that answers it was removed (squad-abstain); `ask` should flag it. */
  answerable?: boolean;
  /** The heading of the gold section (docsqa-style sets), as written. */
  section?: string;
};

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    pages: { type: "string" },
    queries: { type: "string" },
    gate: { type: "boolean", default: false },
    ask: { type: "boolean", default: false },
    min: { type: "string", multiple: true },
    max: { type: "string", multiple: true },
    features: { type: "string" },
    exact: { type: "string" },
  },
});
const dir = positionals[0];
if (!dir) {
  console.error(
    "usage: deno task eval <dir> [--pages pages.jsonl] [--queries N] [--gate] [--min metric=value]",
  );
  Deno.exit(2);
}

/**
 * The share of queries whose top 10 chunks from the in-memory lexical index are those of the
 * exhaustive SQL leg (`selectBm25`): `exact_top10` as returned, `exact_top10_ties` with scores
 * equal to 12 digits counted as ties (PostgreSQL adds a chunk's terms in no fixed order, so
 * equal scores can differ in the last bit there).
 */
async function exactShare(deps: Deps) {
  const n = Math.min(queries.length, values.exact ? Number(values.exact) : queries.length);
  const checked = Array.from({ length: n }, (_, i) => queries[Math.floor(i * queries.length / n)]!);
  let same = 0;
  let sameUpToTies = 0;
  const canonical = (hits: { chunk_id: number; score: number }[]) =>
    JSON.stringify(
      hits.map((h) => ({ id: h.chunk_id, s: Number(h.score.toPrecision(12)) }))
        .sort((a, b) => b.s - a.s || a.id - b.id).slice(0, 10).map((h) => h.id),
    );
  for (const q of checked) {
    const fast = await lexicalTopK(deps, ["eval"], q.query, BM25, 20);
    const exact = await selectBm25(deps.db, ["eval"], q.query, BM25, 20);
    const ids = (hits: { chunk_id: number }[]) =>
      JSON.stringify(hits.slice(0, 10).map((h) => h.chunk_id));
    if (ids(fast) === ids(exact)) same++;
    if (canonical(fast) === canonical(exact)) sameUpToTies++;
  }
  return {
    exact_top10: round(same / checked.length),
    exact_top10_ties: round(sameUpToTies / checked.length),
    exact_queries: checked.length,
  };
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
  if (values.ask && !values.gate) await answerGate(deps, drop);
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
  figures.lexical = { ...figures.lexical, ...await exactShare(deps) };
  console.table(figures);
  console.log(JSON.stringify(figures));
  for (const rule of values.min ?? []) {
    const [metric, value] = rule.split("=");
    // `metric` is hybrid's, or `leg.metric` (`lexical.exact_top10`) for another leg's.
    const [leg, name] = metric?.includes(".") ? metric.split(".", 2) : ["hybrid", metric];
    const actual = figures[leg ?? ""]?.[name ?? ""];
    // With `--gate --ask` one import serves both: a metric retrieval does not report is left
    // to the answers' gate below, which fails it if the answers do not report it either.
    if (actual === undefined && values.ask) continue;
    if (actual === undefined || !(actual >= Number(value))) {
      console.error(`gate: ${leg} ${name} is ${actual}, below ${value}`);
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
  if (values.ask) await answerGate(deps, drop, figures);
} finally {
  await drop();
}

/**
 * Measures the answers (`evaluateAnswers`), prints them and holds them to `--min` and `--max`;
 * then drops the store and exits (without the exit, the process could wait on what the answers
 * left open). With `--gate`
 * the retrieval figures were measured first on the same import (`retrieval`), and a `--min`
 * metric they report was held there, so it is not looked for here.
 */
async function answerGate(
  deps: Deps,
  drop: () => Promise<void>,
  retrieval?: Record<string, Record<string, number>>,
): Promise<never> {
  const figures = await evaluateAnswers(deps) as Record<string, number>;
  console.table({ ask: figures });
  console.log(JSON.stringify(figures));
  const heldByRetrieval = (metric = "") => {
    const [leg, name] = metric.includes(".") ? metric.split(".", 2) : ["hybrid", metric];
    return retrieval?.[leg ?? ""]?.[name ?? ""] !== undefined;
  };
  for (const rule of values.min ?? []) {
    const [metric, value] = rule.split("=");
    if (heldByRetrieval(metric)) continue;
    if (!(figures[metric ?? ""]! >= Number(value))) {
      console.error(`gate: ${metric} is below ${value}`);
      Deno.exitCode = 1;
    }
  }
  for (const rule of values.max ?? []) {
    const [metric, value] = rule.split("=");
    if (!(figures[metric ?? ""]! <= Number(value))) {
      console.error(`gate: ${metric} is above ${value}`);
      Deno.exitCode = 1;
    }
  }
  await drop();
  Deno.exit();
}

/**
 * Runs every question through `ask` and measures, on answerable questions, how often a gold
 * answer string is in the answer and a gold page is cited; on every question, the share of
 * citations whose quote is `markdown.slice(start, end)` of its page, of answers carrying
 * markdown syntax (`markup_in_answers`) and of fragments (`fragment_answers`); on a set with
 * `answerable`, the share of uncovered questions flagged (coverage not `supported`) and of
 * covered ones wrongly flagged, the share of `supported` answers whose question is answerable
 * (`supported_precision`), and, on answerable questions, the share of answers holding a gold
 * value that were flagged (`right_flagged`) and of answers holding none called `supported`
 * (`wrong_supported`): whether the verdict's flags fall on the answers that miss.
 * `first_citation_gold` is the share whose first citation is a gold page. On a set whose
 * questions name their gold `section`: the share whose first citation is on it
 * (`first_citation_gold_section`; of those, the share flagged: `gold_section_flagged`), whose
 * top search result is (`search_top_gold_section`; on the gold page: `search_top_gold_page`), whose
 * top 3 hold it (`search_top3_gold_section`), and whose first citation is search's top section
 * (`first_citation_search_top`: whether the answer comes from where search ranks best).
 * `sections_per_answer` is the median number of sections an answer cites; `source_syntax` the
 * share of answers showing the source's syntax (HTML, rows glued with commas, code lines glued
 * with `;`, tab info strings, wikilinks, include directives, callout markers: answer_shape.ts),
 * `snippet_syntax` the same over the top 3 search snippets. With `EVAL_SHOW=1` each answer is
 * printed with its first citation's page and section.
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
  let firstGold = 0;
  let quotes = 0;
  let verbatim = 0;
  let markup = 0;
  let fragments = 0;
  let answered = 0;
  const flagged = { covered: 0, uncovered: 0, nCovered: 0, nUncovered: 0 };
  // The verdict on answerable questions, by whether the answer holds a gold value.
  const byValue = { right: 0, rightFlagged: 0, wrong: 0, wrongSupported: 0 };
  // … and by whether its first citation is on the gold section.
  const bySection = { right: 0, rightFlagged: 0 };
  const latencies: number[] = [];
  const glued = gluedForms(markdown.values());
  const shape = {
    firstSection: 0,
    withSection: 0,
    syntax: 0,
    searchTop: 0,
    searchTop3: 0,
    searchTopPage: 0,
    followsSearch: 0,
    snippets: 0,
  };
  let snippetSyntax = 0;
  const sections: number[] = [];
  const syntaxKinds = new Map<string, number>();
  const asked = queries.filter((q) => (q.answers && q.answers.length > 0) || "answerable" in q);
  const answerable = asked.filter((q) => q.answerable !== false);
  const dump: string[] = [];
  for (const q of asked) {
    const t = performance.now();
    const { answer, evidence, probability, passages, limits } = await assessQuestion(
      deps,
      ["eval"],
      {
        question: q.query,
      },
    );
    latencies.push(performance.now() - t);
    if (values.features) {
      dump.push(JSON.stringify({
        id: q.id,
        answerable: q.answerable ?? true,
        probability,
        // The SQuAD-fitted model's own, which a documentation answer's `probability` recalibrates.
        squadProbability: answerability(evidence),
        coverage: answer.coverage,
        limits,
        features: featureVector(evidence),
        ...(Deno.env.get("EVAL_DUMP_PASSAGES")
          ? {
            question: q.query,
            passages,
            cited: answer.citations.map((c) => ({
              page: c.page,
              section: c.section,
              quote: c.quote,
            })),
            answer: answer.answer,
          }
          : {}),
      }));
    }
    const text = answer.answer.toLowerCase();
    const holdsGold = q.answers?.some((a) => text.includes(a.toLowerCase())) ?? false;
    if ("answerable" in q) {
      const isFlagged = answer.coverage !== "supported";
      if (q.answerable) {
        flagged.nCovered++;
        if (isFlagged) flagged.covered++;
        if (holdsGold) {
          byValue.right++;
          if (isFlagged) byValue.rightFlagged++;
        } else {
          byValue.wrong++;
          if (!isFlagged) byValue.wrongSupported++;
        }
      } else {
        flagged.nUncovered++;
        if (isFlagged) flagged.uncovered++;
      }
    }
    if (answer.citations.length > 0) {
      answered++;
      if (hasMarkup(answer.answer)) markup++;
      if (isFragment(answer.answer)) fragments++;
      sections.push(sectionsOf(answer.citations));
      const kinds = sourceSyntax(answer.answer, glued);
      if (kinds.length > 0) shape.syntax++;
      for (const k of kinds) syntaxKinds.set(k, (syntaxKinds.get(k) ?? 0) + 1);
    }
    if (q.section && q.answerable !== false) {
      shape.withSection++;
      if (onGoldSection(answer.citations[0], q.gold, q.section)) {
        shape.firstSection++;
        bySection.right++;
        if (answer.coverage !== "supported") bySection.rightFlagged++;
      }
      const found = await searchWikis(deps, ["eval"], { query: q.query, limit: 3 });
      const [top] = found.results;
      const first = answer.citations[0];
      if (top && q.gold.includes(top.page)) shape.searchTopPage++;
      if (found.results.some((r) => onGoldSection(r, q.gold, q.section!))) shape.searchTop3++;
      if (top && first?.page === top.page && first.section === top.section) shape.followsSearch++;
      if (onGoldSection(top, q.gold, q.section)) shape.searchTop++;
      else if (Deno.env.get("EVAL_SHOW")) {
        console.log(
          `${q.id} search top ${top?.page} › ${top?.section}; gold ${q.gold} › ${q.section}`,
        );
      }
      for (const r of found.results) {
        shape.snippets++;
        const kinds = sourceSyntax(r.snippet, glued);
        if (kinds.length > 0) snippetSyntax++;
        for (const k of kinds) {
          syntaxKinds.set(`snippet_${k}`, (syntaxKinds.get(`snippet_${k}`) ?? 0) + 1);
        }
        if (kinds.length > 0 && Deno.env.get("EVAL_SHOW")) {
          console.log(`snippet ${kinds}: ${r.snippet}`);
        }
      }
    }
    if (Deno.env.get("EVAL_SHOW")) {
      const first = answer.citations[0];
      const marks = q.answerable === false ? "" : [
        holdsGold ? "+value" : "-value",
        answer.citations.some((c) => q.gold.includes(c.page)) ? "+page" : "-page",
        q.section ? (onGoldSection(first, q.gold, q.section) ? "+section" : "-section") : "",
      ].filter(Boolean).join(" ") + " ";
      console.log(
        `${q.id} ${answer.coverage} ${marks}[${
          first ? `${first.page} › ${first.section}` : "-"
        }] ` +
          `{${answer.citations.map((c) => c.page).join(" | ")}} ` +
          answer.answer,
      );
    }
    if (q.answerable !== false) {
      if (holdsGold) containsGold++;
      if (answer.citations.some((c) => q.gold.includes(c.page))) goldCited++;
      if (q.gold.includes(answer.citations[0]?.page ?? "")) firstGold++;
    }
    for (const c of answer.citations) {
      quotes++;
      if (markdown.get(c.page)?.slice(c.start, c.end) === c.quote) verbatim++;
    }
  }
  if (values.features) await Deno.writeTextFile(values.features, dump.join("\n") + "\n");
  if (syntaxKinds.size > 0) {
    console.log("source syntax:", Object.fromEntries(syntaxKinds));
  }
  const share = (n: number, of: number) => round(n / Math.max(of, 1));
  return {
    questions: asked.length,
    answer_contains_gold: share(containsGold, answerable.length),
    gold_page_cited: share(goldCited, answerable.length),
    first_citation_gold: share(firstGold, answerable.length),
    verbatim_quotes: round(quotes === 0 ? 1 : verbatim / quotes),
    markup_in_answers: share(markup, answered),
    fragment_answers: share(fragments, answered),
    ...(flagged.nCovered + flagged.nUncovered > 0
      ? {
        uncovered_flagged: share(flagged.uncovered, flagged.nUncovered),
        covered_flagged: share(flagged.covered, flagged.nCovered),
        supported_precision: share(
          flagged.nCovered - flagged.covered,
          flagged.nCovered - flagged.covered + flagged.nUncovered - flagged.uncovered,
        ),
        right_flagged: share(byValue.rightFlagged, byValue.right),
        wrong_supported: share(byValue.wrongSupported, byValue.wrong),
      }
      : {}),
    citations_per_answer: round(quotes / Math.max(asked.length, 1)),
    sections_per_answer: median(sections),
    source_syntax: share(shape.syntax, answered),
    ...(shape.withSection > 0
      ? {
        first_citation_gold_section: share(shape.firstSection, shape.withSection),
        search_top_gold_section: share(shape.searchTop, shape.withSection),
        search_top3_gold_section: share(shape.searchTop3, shape.withSection),
        search_top_gold_page: share(shape.searchTopPage, shape.withSection),
        first_citation_search_top: share(shape.followsSearch, shape.withSection),
        snippet_syntax: share(snippetSyntax, shape.snippets),
        gold_section_flagged: share(bySection.rightFlagged, bySection.right),
      }
      : {}),
    p50_ms: round(quantile(latencies, 0.5)),
    p95_ms: round(quantile(latencies, 0.95)),
  };
}

/**
 * Whether an answer carries syntax that is not clean markdown: bold marks or a wikilink outside
 * code (fenced or in a code span: `cli/exec/**` is a glob), or a table row written with pipes
 * outside a table. Answers are markdown: fenced code, code spans, lists and a small table with
 * its header (where the source has one) are theirs.
 */
function hasMarkup(answer: string): boolean {
  return /\*\*|\[\[|(^|\n)\s*\|.*\|/.test(
    withoutTables(withoutCode(answer)).replace(/`[^`\n]+`/g, " "),
  );
}

/** An answer's text without its markdown tables. */
function withoutTables(answer: string): string {
  // A header row, its `| --- |` line, and its rows.
  return answer.replace(
    /(^|\n)\|[^\n]*\|[ \t]*\n\|(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*(?:\n\|[^\n]*\|[ \t]*)*/g,
    "$1",
  );
}

/** An answer's text without its fenced code blocks. */
function withoutCode(answer: string): string {
  return answer.replace(/(^|\n) {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n {0,3}\2[^\n]*/g, "$1");
}

/**
 * An answer that starts in lower case or inside a parenthesis, or ends without sentence
 * punctuation (citation markers, list markers and code blocks aside; a colon announcing a code
 * block ends its sentence).
 */
function isFragment(answer: string): boolean {
  // A sentence ending in a colon right before its code block or table is complete ("… these:").
  const text = withoutTables(withoutCode(
    answer.replace(/:(?=\s*(?:\[\d+\])?\s*\n(?: {0,3}(?:`{3,}|~{3,})|\|))/g, "."),
  ))
    .replace(/\s*\[\d+\]/g, "")
    .replace(/(^|\n)\s*(?:[-*+]|\d{1,9}[.)])\s+/g, "$1").trim();
  if (!text) return false;
  return /^[\p{Ll})\]]/u.test(text) || /^[^(]*\)/.test(text) ||
    !/[.!?]["')\]”’]?$/.test(text);
}

/**
 * Fits the documentation branch of the verdict (`documentationAnswerability`, `DOCS_WEIGHTS`,
 * `SUPPORTED_AT_DOCS` in src/ask/verdict.ts: a logistic model over the SQuAD-fitted verdict's
 * log-odds and `entryNamed`) on the answers of documentation sets, chooses its `supported` bar,
 * and checks both leaving one set out at a time; `--inputs` fits other inputs the same way
 * (the evidence of scripts/verdict_docs_extra.ts and the verdict's own features, measured and
 * not shipped: docs/answers.md, "The verdict on documentation, fitted and checked set by set",
 * "The documentation verdict refitted with nautobot").
 *
 *   for set in ../shared/eval/docsqa-dev eval/woodpecker eval/nats eval/rollouts \
 *     eval/paperless eval/nautobot; do
 *     EVAL_DUMP_PASSAGES=1 deno task eval $set --ask --features $(basename $set).jsonl
 *   done
 *   EVAL_DUMP_PASSAGES=1 deno task eval eval/guide --ask --pages docs/guide --features guide.jsonl
 *   deno run --allow-read scripts/fit_verdict_docs.ts docsqa-dev.jsonl woodpecker.jsonl \
 *     nats.jsonl rollouts.jsonl paperless.jsonl nautobot.jsonl guide.jsonl \
 *     [--inputs logit,entryNamed] [--precision 0.9] [--unanswerable 0.85] [--single] [--sweep]
 *
 * The bar is the lowest from which on `supported` holds the stated precision and flags the
 * stated share of unanswerable questions, and no fewer of them than the SQuAD probability at
 * the bar before (`BEFORE`), on every fitting set with both kinds. A set without unanswerable
 * questions (the guide) adds answerable rows to the model's fit and is never left out alone.
 * What holds an answer under `supported` whatever its probability counts as in the service
 * (`assessParsed`, src/ask/ask.ts; the dump's `limits`): an answer cut for weak coverage (no
 * citation), a name the wiki never writes or a part it does not answer is flagged; an
 * extractive answer under the coverage bar needs the model's own bar as well (`ownBar`,
 * `modelBar` in src/ask/verdict.ts: `SUPPORTED_AT` carried to the model's scale). Answers
 * whose passages all stand on pages of one `#` heading (SQuAD's) keep the SQuAD model and bar.
 */
import { parseQuestion } from "../src/ask/question.ts";
import { subjectOf } from "../src/ask/form_words.ts";
import { type Cited, docsEvidence } from "./verdict_docs_extra.ts";
import { titledParagraph } from "../src/ask/located_sentences.ts";
import type { Passage } from "../src/ask/passages.ts";
import { entryNamed, FEATURES, SUPPORTED_AT } from "../src/ask/verdict.ts";
import { fitLogistic } from "./logistic.ts";

type Row = {
  set: string;
  id: string;
  answerable: boolean;
  /**
   * Flagged whatever the model says: no citation (cut for weak coverage), a name the wiki never
   * writes or a part of the question it does not answer.
   */
  cut: boolean;
  /** An extractive answer under the coverage bar: `supported` only from `SUPPORTED_AT` too. */
  weak: boolean;
  /** From a page of sections (the documentation branch applies). */
  docs: boolean;
  probability: number;
  x: number[];
};

const opt = (name: string) => {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Deno.args[i + 1] : undefined;
};
/**
 * The model's inputs (`--inputs a,b`; the shipped model's by default): `logit` (the SQuAD
 * verdict's log-odds), `entryNamed`, the evidence of `DOCS_EVIDENCE`, the verdict's features.
 */
const DOCS_INPUTS = (opt("inputs") ?? "logit,entryNamed").split(",");
/** The documentation bar before the branch, on the SQuAD probability (docs/answers.md). */
const BEFORE = 0.27;
const PRECISION = Number(opt("precision") ?? 0.9);
/** The share of unanswerable questions each fitting set must flag at the bar. */
const UNANSWERABLE = Number(opt("unanswerable") ?? 0.85);
const L2 = Number(opt("l2") ?? 0.1);
const files = Deno.args.filter((a) => a.endsWith(".jsonl"));

const logit = (p: number) => Math.log(Math.max(p, 1e-6) / Math.max(1 - p, 1e-6));

async function load(file: string): Promise<Row[]> {
  const set = file.slice(file.lastIndexOf("/") + 1).replace(/\..*$/, "");
  return (await Deno.readTextFile(file)).split("\n").filter(Boolean).map((line) => {
    const r = JSON.parse(line) as {
      id: string;
      answerable: boolean;
      squadProbability: number;
      limits: { weakCoverage: boolean; held: boolean };
      features: number[];
      question: string;
      passages: Passage[];
      cited: Cited[];
    };
    const question = parseQuestion(r.question);
    const e: Record<string, number> = {
      ...Object.fromEntries(FEATURES.map((f, i) => [f, r.features[i]!])),
      logit: logit(r.squadProbability),
      entryNamed: entryNamed(subjectOf(question), r.cited[0]?.section ?? null),
      ...docsEvidence(question, r.passages, r.cited),
    };
    const first = r.passages.find((p) => p.page === r.cited[0]?.page);
    return {
      set,
      id: r.id,
      answerable: r.answerable,
      cut: r.cited.length === 0 || r.limits.held,
      weak: r.limits.weakCoverage,
      docs: first !== undefined && r.passages.some((p) => !titledParagraph(p)),
      probability: r.squadProbability,
      x: DOCS_INPUTS.map((f) => {
        if (!(f in e)) throw new Error(`no input ${f}`);
        return e[f]!;
      }),
    };
  });
}

type Model = { w: number[]; b: number };

/** L2-regularised logistic regression (`fitLogistic`), each set's classes weighing alike. */
function fit(rows: Row[]): Model {
  const count = new Map<string, number>();
  for (const r of rows) {
    count.set(`${r.set}${r.answerable}`, (count.get(`${r.set}${r.answerable}`) ?? 0) + 1);
  }
  const weight = rows.map((r) => {
    const both = count.has(`${r.set}true`) && count.has(`${r.set}false`);
    const size = (count.get(`${r.set}true`) ?? 0) + (count.get(`${r.set}false`) ?? 0);
    // A set of one class (the guide) weighs as half a balanced set of its size.
    return both ? size / (2 * count.get(`${r.set}${r.answerable}`)!) : 0.5;
  });
  return fitLogistic(rows.map((r) => r.x), rows.map((r) => r.answerable), weight, {
    iterations: 3000,
    l2: L2,
  });
}

const prob = (m: Model, r: Row) =>
  1 / (1 + Math.exp(-r.x.reduce((s, v, j) => s + m.w[j]! * v, m.b)));

/**
 * The SQuAD model's own bar (`SUPPORTED_AT`) on a model's scale: its probability at that bar
 * with its other inputs at 0 (an entry the question does not name), as `modelBar`.
 */
function ownBar(m: Model | null): number {
  if (!m) return SUPPORTED_AT;
  const j = DOCS_INPUTS.indexOf("logit");
  return 1 / (1 + Math.exp(-(m.b + (j < 0 ? 0 : m.w[j]! * logit(SUPPORTED_AT)))));
}

/** Whether an answer is flagged (not `supported`) under a model (none: the SQuAD one) and bar. */
function flagged(m: Model | null, bar: number, r: Row): boolean {
  if (r.cut) return true;
  if (!m || !r.docs) {
    return r.probability < (r.docs ? bar : SUPPORTED_AT) || r.weak && r.probability < SUPPORTED_AT;
  }
  return prob(m, r) < bar || r.weak && prob(m, r) < ownBar(m);
}

function figures(m: Model | null, bar: number, rows: Row[]) {
  const a = rows.filter((r) => r.answerable), u = rows.filter((r) => !r.answerable);
  const fa = a.filter((r) => flagged(m, bar, r)).length;
  const fu = u.filter((r) => flagged(m, bar, r)).length;
  const tp = a.length - fa, fp = u.length - fu;
  return {
    precision: tp + fp === 0 ? 1 : tp / (tp + fp),
    answerable: a.length ? fa / a.length : 0,
    unanswerable: u.length ? fu / u.length : NaN,
  };
}

/**
 * The lowest bar from which on `supported` keeps the stated precision, and flags at least
 * `UNANSWERABLE` of the unanswerable questions, on every fitting set that has both kinds.
 */
function chooseBar(m: Model, rows: Row[]): number {
  const labelled = [...new Set(rows.filter((r) => !r.answerable).map((r) => r.set))]
    .map((s) => rows.filter((r) => r.set === s));
  const holds = (t: number) =>
    labelled.every((set) => {
      const f = figures(m, t, set);
      const floor = Math.max(UNANSWERABLE, figures(null, BEFORE, set).unanswerable);
      return f.precision >= PRECISION && f.unanswerable >= floor - 1e-9;
    });
  let bar = 0.95;
  for (let t = 0.95; t >= 0.05; t -= 0.01) {
    if (!holds(t)) break;
    bar = Math.round(t * 100) / 100;
  }
  return bar;
}

function auc(m: Model | null, rows: Row[]) {
  const s = (r: Row) => (m ? prob(m, r) : r.probability);
  const p = rows.filter((r) => r.answerable).map(s), n = rows.filter((r) => !r.answerable).map(s);
  let wins = 0;
  for (const a of p) for (const b of n) wins += a > b ? 1 : a === b ? 0.5 : 0;
  return wins / (p.length * n.length);
}

const all = (await Promise.all(files.map(load))).flat();
const sets = [...new Set(all.map((r) => r.set))];
const labelledSets = sets.filter((s) => all.some((r) => r.set === s && !r.answerable));
const f3 = (v: number) => v.toFixed(3);
const line = (f: ReturnType<typeof figures>) =>
  `precision ${f3(f.precision)}, flagged ${f3(f.answerable)} / ${f3(f.unanswerable)}`;
const usable = (rows: Row[]) => rows.filter((r) => !r.cut && r.docs);

console.log(`target precision of supported ${PRECISION}, L2 ${L2}, inputs ${DOCS_INPUTS}`);
console.log("leave one set out (fit and bar on the others, figures on the one left out):");
for (const out of labelledSets) {
  const rest = all.filter((r) => r.set !== out);
  const m = fit(usable(rest));
  const bar = chooseBar(m, rest);
  const held = all.filter((r) => r.set === out);
  console.log(
    `  ${out}: the SQuAD probability at ${BEFORE} ${line(figures(null, BEFORE, held))} (AUC ${
      f3(auc(null, usable(held)))
    }) → bar ${bar.toFixed(2)}: ${line(figures(m, bar, held))} (AUC ${f3(auc(m, usable(held)))})`,
  );
}
const model = fit(usable(all));
const bar = chooseBar(model, all);
console.log(`all sets: bar ${bar.toFixed(2)}`);
for (const s of sets) {
  const rows = all.filter((r) => r.set === s);
  console.log(
    `  ${s}: the SQuAD probability at ${BEFORE} ${line(figures(null, BEFORE, rows))} → ${
      line(figures(model, bar, rows))
    }`,
  );
}
console.log(
  "weights:",
  DOCS_INPUTS.map((f, j) => `${f} ${model.w[j]!.toFixed(3)}`).join(", "),
  `bias ${model.b.toFixed(3)}`,
);

if (Deno.args.includes("--sweep")) {
  // The model fitted on all sets at other bars: each set's answerable / unanswerable flagged
  // (docs/answers.md, "Twenty-fifth session": the bar at the issue's own floors).
  for (let t = 0.3; t <= 0.56 + 1e-9; t += 0.02) {
    const cells = sets.map((s) => {
      const f = figures(model, t, all.filter((r) => r.set === s));
      return `${s} ${f3(f.answerable)} / ${isNaN(f.unanswerable) ? "-" : f3(f.unanswerable)}`;
    });
    console.log(`bar ${t.toFixed(2)}: ${cells.join(", ")}`);
  }
}

if (Deno.args.includes("--single")) {
  // Each input alone: its ROC AUC on each labelled set (above 0.5: larger means answerable).
  for (const [j, f] of DOCS_INPUTS.entries()) {
    const per = labelledSets.map((s) => {
      const rows = usable(all.filter((r) => r.set === s));
      const m = { w: DOCS_INPUTS.map((_, k) => (k === j ? 1 : 0)), b: 0 };
      return `${s} ${f3(auc(m, rows))}`;
    });
    console.log(`  ${f}: ${per.join(", ")}`);
  }
}

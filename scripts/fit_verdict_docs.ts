/**
 * Chooses the verdict's `supported` bar for documentation answers (`SUPPORTED_AT_DOCS`,
 * src/ask/verdict.ts) on the answers of documentation sets, and checks it leaving one set out at
 * a time; beside it, fits and checks the same way a documentation branch of the verdict (a
 * logistic model over the SQuAD-fitted verdict's log-odds and the evidence of
 * scripts/verdict_docs_extra.ts), measured and not shipped (docs/answers.md, "The verdict on
 * documentation, fitted and checked set by set").
 *
 *   for set in ../shared/eval/docsqa-dev eval/woodpecker eval/nats; do
 *     EVAL_DUMP_PASSAGES=1 deno task eval $set --ask --features $(basename $set).jsonl
 *   done
 *   EVAL_DUMP_PASSAGES=1 deno task eval eval/guide --ask --pages docs/guide --features guide.jsonl
 *   deno run --allow-read scripts/fit_verdict_docs.ts docsqa-dev.jsonl woodpecker.jsonl \
 *     nats.jsonl guide.jsonl [--precision 0.9] [--unanswerable 0.85] [--without a,b] [--single]
 *
 * The bar is the lowest from which on `supported` holds the stated precision and flags the
 * stated share of unanswerable questions on every fitting set with both kinds. A set without
 * unanswerable questions (the guide) adds answerable rows to the model's fit and is never left
 * out alone. Answers cut for weak coverage (no citation) are flagged whatever the verdict says,
 * and count so in every figure; answers whose passages all stand on pages of one `#` heading
 * (SQuAD's) keep the SQuAD bar, as in the service (`weigh`, src/ask/ask.ts).
 */
import { parseQuestion } from "../src/ask/question.ts";
import { type Cited, docsEvidence } from "./verdict_docs_extra.ts";
import { titledParagraph } from "../src/ask/located_sentences.ts";
import type { Passage } from "../src/ask/passages.ts";
import { FEATURES, SUPPORTED_AT } from "../src/ask/verdict.ts";
import { fitLogistic } from "./logistic.ts";

/** The model's inputs: the SQuAD verdict's log-odds, then the documentation evidence. */
const DOCS_EVIDENCE = [
  "logit",
  "onTop",
  "pageRank",
  "heading",
  "answerHeld",
  "answerMissMax",
  "unseen",
  "kind",
  "sectionMargin",
] as const;
/**
 * `--refit`: the 34 features of the SQuAD verdict itself join the inputs, refitted on the
 * documentation rows (an experiment: measured leaving one set out).
 */
const REFIT = Deno.args.includes("--refit");
const DOCS_INPUTS: string[] = [...DOCS_EVIDENCE, ...(REFIT ? FEATURES : [])];

type Row = {
  set: string;
  id: string;
  answerable: boolean;
  /** No citation: the answer was cut for weak coverage, flagged whatever the model says. */
  cut: boolean;
  /** From a page of sections (the documentation branch applies). */
  docs: boolean;
  probability: number;
  x: number[];
};

const opt = (name: string) => {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Deno.args[i + 1] : undefined;
};
const PRECISION = Number(opt("precision") ?? 0.9);
/** The share of unanswerable questions each fitting set must flag at the bar. */
const UNANSWERABLE = Number(opt("unanswerable") ?? 0.85);
const L2 = Number(opt("l2") ?? 0.1);
/** Inputs held out of the model (an ablation): `--without a,b`. */
const WITHOUT = new Set((opt("without") ?? "").split(",").filter(Boolean));
const files = Deno.args.filter((a) => a.endsWith(".jsonl"));

const logit = (p: number) => Math.log(Math.max(p, 1e-6) / Math.max(1 - p, 1e-6));

async function load(file: string): Promise<Row[]> {
  const set = file.slice(file.lastIndexOf("/") + 1).replace(/\..*$/, "");
  return (await Deno.readTextFile(file)).split("\n").filter(Boolean).map((line) => {
    const r = JSON.parse(line) as {
      id: string;
      answerable: boolean;
      probability: number;
      features: number[];
      question: string;
      passages: Passage[];
      cited: Cited[];
    };
    const e: Record<string, number> = {
      ...Object.fromEntries(FEATURES.map((f, i) => [f, r.features[i]!])),
      logit: logit(r.probability),
      ...docsEvidence(parseQuestion(r.question), r.passages, r.cited),
    };
    const first = r.passages.find((p) => p.page === r.cited[0]?.page);
    return {
      set,
      id: r.id,
      answerable: r.answerable,
      cut: r.cited.length === 0,
      docs: first !== undefined && r.passages.some((p) => !titledParagraph(p)),
      probability: r.probability,
      x: DOCS_INPUTS.map((f) => WITHOUT.has(f) ? 0 : e[f]!),
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

/** Whether an answer is flagged (not `supported`) under a model and bar. */
const flagged = (m: Model | null, bar: number, r: Row) =>
  r.cut || (m && r.docs ? prob(m, r) < bar : r.probability < (r.docs ? bar : SUPPORTED_AT));

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
      return f.precision >= PRECISION && f.unanswerable >= UNANSWERABLE;
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
  // The SQuAD verdict alone, its bar chosen the same way (an identity model on its log-odds).
  const same = { w: DOCS_INPUTS.map((f) => (f === "logit" ? 1 : 0)), b: 0 };
  const sameBar = chooseBar(same, rest);
  console.log(
    `  ${out}: SQuAD verdict, bar chosen alike ${sameBar.toFixed(2)}: ${
      line(figures(same, sameBar, held))
    }`,
  );
  console.log(
    `  ${out}: bar ${bar.toFixed(2)}; at the old bar 0.30 ${line(figures(null, 0.3, held))} (AUC ${
      f3(auc(null, usable(held)))
    }) → ${line(figures(m, bar, held))} (AUC ${f3(auc(m, usable(held)))})`,
  );
}
const model = fit(usable(all));
const bar = chooseBar(model, all);
{
  const same = { w: DOCS_INPUTS.map((f) => (f === "logit" ? 1 : 0)), b: 0 };
  const sameBar = chooseBar(same, all);
  console.log(`all sets, the SQuAD verdict's probability: bar ${sameBar.toFixed(2)}`);
  for (const s of sets) {
    console.log(`  ${s}: ${line(figures(same, sameBar, all.filter((r) => r.set === s)))}`);
  }
}
console.log(`all sets: bar ${bar.toFixed(2)}`);
for (const s of sets) {
  const rows = all.filter((r) => r.set === s);
  console.log(
    `  ${s}: at the old bar 0.30 ${line(figures(null, 0.3, rows))} → ${
      line(figures(model, bar, rows))
    }`,
  );
}
console.log(
  "weights:",
  DOCS_INPUTS.map((f, j) => `${f} ${model.w[j]!.toFixed(3)}`).join(", "),
  `bias ${model.b.toFixed(3)}`,
);

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

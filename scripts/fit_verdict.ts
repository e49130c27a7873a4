/**
 * Fits the verdict's logistic model (written to src/ask/verdict_model.ts with `--write`) over
 * the evidence features, on synthetic development sets from ../shared/eval/squad
 * (scripts/verdict_sets.ts) plus the fitting half of ../shared/eval/squad-abstain, and reports
 * it on the abstain set's held-out half (docs/answers.md, "The verdict"). `--trees` fits
 * gradient-boosted depth-2 trees instead, for comparison (not written: they did no better).
 *
 *   EVAL_DUMP_PASSAGES=1 deno task eval ../shared/eval/squad-abstain --ask --features abstain.jsonl
 *   deno run --allow-read --allow-write scripts/verdict_sets.ts /tmp/syn 4
 *   for k in 1 2 3 4: EVAL_DUMP_PASSAGES=1 deno task eval /tmp/syn/syn$k --ask --features syn$k.jsonl
 *   deno run --allow-read --allow-write scripts/fit_verdict.ts abstain.jsonl syn*.jsonl [--write]
 *
 * Abstain questions go to the fitting half when the last hex digit of sha1(id) is even; the
 * synthetic sets never hold an abstain question. The window and alignment signals are
 * recomputed from the dumped passages, so a change to them can be fitted without re-running
 * the eval; the other features are read from the dump by name order of `DUMPED`.
 *
 * Experiments (measured, not shipped; the model is then never written): `--extra qpp,ibm`
 * appends features computed here (scripts/verdict_extra.ts: query-performance predictors, IBM
 * Model 1 translation likelihood); `--extra-dir DIR` appends features computed beforehand
 * (scripts/soft_alignment.ts: soft alignment with pretrained word vectors). The held-out figures
 * also print where its covered flagged is nearest 0.10 (a report, never a choice).
 */
import { alignment } from "../src/ask/alignment.ts";
import { windowSignals } from "../src/ask/signals.ts";
import { parseQuestion } from "../src/ask/question.ts";
import { FEATURES } from "../src/ask/verdict.ts";
import type { Passage } from "../src/ask/passages.ts";
import {
  type Background,
  digit,
  goldPairs,
  IBM,
  ibm,
  loadBackground,
  QPP,
  qpp,
  type Table,
  trainModel1,
} from "./verdict_extra.ts";
import { fitLogistic } from "./logistic.ts";

type Row = { id: string; answerable: boolean; x: number[]; fit: boolean; synthetic: boolean };

/** The order of features in a dump written by the eval before alignment features existed. */
const DUMPED = FEATURES.slice(0, FEATURES.indexOf("window"));

const args = Deno.args.filter((a) => !a.startsWith("--"));
const flag = (name: string, dflt: number) => {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Number(Deno.args[i + 1]) : dflt;
};
const [abstainFile, ...synFiles] = args.filter((a) => a.endsWith(".jsonl"));
if (!abstainFile) throw new Error("usage: fit_verdict.ts abstain.jsonl [syn*.jsonl] [--write]");
const ROUNDS = flag("rounds", 300);
const RATE = flag("rate", 0.1);
const DEPTH = flag("depth", 2);
const MIN_LEAF = flag("min-leaf", 40);
const ONLY = Deno.args.includes("--only-abstain");
/** Features held at 0 (an ablation): `--without a,b`. */
const WITHOUT = new Set(
  Deno.args.includes("--without") ? Deno.args[Deno.args.indexOf("--without") + 1]!.split(",") : [],
);
/** Boosted trees instead of the logistic model (for comparison; not written). */
const TREES_MODE = Deno.args.includes("--trees");
/** How much one abstain fitting-half question weighs against one synthetic question. */
const ABSTAIN_WEIGHT = flag("abstain-weight", 1);
/**
 * Experimental features appended to FEATURES (scripts/verdict_extra.ts; not written):
 * `--extra qpp`, `--extra ibm` or both. The background language model of a dump is its wiki's
 * pages.jsonl: ../shared/eval/squad-abstain for the abstain dump (`--abstain-wiki`), and
 * `syn/<name>/` beside a synthetic dump (`--syn-wikis`).
 */
const EXTRA = new Set(
  Deno.args.includes("--extra") ? Deno.args[Deno.args.indexOf("--extra") + 1]!.split(",") : [],
);
const opt = (name: string) => {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Deno.args[i + 1] : undefined;
};
/**
 * The IBM table is learned from the synthetic sets' questions with an even sha1 digit, so the
 * logistic model is fitted on the others only (`--syn-odd` alone: the same rows, no table).
 */
const SYN_ODD = Deno.args.includes("--syn-odd") || EXTRA.has("ibm");
/**
 * `--split-by-page`: split the synthetic questions by sha1 of their gold page instead of their
 * id, so no table question shares a paragraph with a question the logistic model is fitted on
 * (SQuAD asks about five questions per paragraph).
 */
const BY_PAGE = Deno.args.includes("--split-by-page");
const goldOf = new Map<string, string>();
if (BY_PAGE) {
  for (
    const l of (await Deno.readTextFile(`${opt("squad") ?? "../shared/eval/squad"}/queries.jsonl`))
      .split("\n")
  ) {
    if (!l.trim()) continue;
    const q = JSON.parse(l) as { id: string; gold: string[] };
    goldOf.set(q.id, q.gold[0]!);
  }
}
/** The key that splits synthetic questions between the IBM table and the logistic fit. */
const synKey = (id: string) => {
  const question = id.replace(/#\d+$/, ""); // a synthetic set's id is the question's, with "#k"
  return BY_PAGE ? goldOf.get(question)! : question;
};
const SQUAD = opt("squad") ?? "../shared/eval/squad";
/**
 * Features appended for an experiment (`--extra-dir DIR`): DIR holds a file named as each dump, one
 * JSON object of named numbers a line in the dump's order (scripts/soft_alignment.ts writes them).
 */
const EXTRA_DIR = Deno.args.includes("--extra-dir")
  ? Deno.args[Deno.args.indexOf("--extra-dir") + 1]!
  : "";
const extraRows = async (file: string): Promise<Record<string, number | string>[]> =>
  EXTRA_DIR
    ? (await Deno.readTextFile(`${EXTRA_DIR}/${file.split("/").pop()}`)).split("\n")
      .filter(Boolean).map((l) => JSON.parse(l))
    : [];
const EXTRA_NAMES = EXTRA_DIR
  ? Object.keys((await extraRows(args.find((a) => a.endsWith(".jsonl"))!))[0]!).filter((k) =>
    k !== "id"
  )
  : [];
const NAMES: string[] = [
  ...FEATURES,
  ...(EXTRA.has("qpp") ? QPP : []),
  ...(EXTRA.has("ibm") ? IBM : []),
  ...EXTRA_NAMES,
];
let table: Table = new Map();
if (EXTRA.has("ibm")) {
  // Never a squad-abstain question (the synthetic sets hold none either).
  const abstainIds = new Set(
    (await Deno.readTextFile(`${wikiOf(abstainFile, false)}/queries.jsonl`)).split("\n")
      .filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id),
  );
  const pairs = await goldPairs(SQUAD, (id) => !abstainIds.has(id) && digit(synKey(id)) % 2 === 0);
  table = trainModel1(pairs, flag("ibm-iterations", 5), flag("ibm-alpha", 2));
  console.log(`IBM Model 1 table from ${pairs.length} question–sentence pairs`);
}
function wikiOf(file: string, synthetic: boolean): string {
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".";
  const base = file.slice(file.lastIndexOf("/") + 1).replace(/\.jsonl$/, "");
  if (!synthetic) return opt("abstain-wiki") ?? "../shared/eval/squad-abstain";
  return `${opt("syn-wikis") ?? `${dir}/syn`}/${base}`;
}

async function load(file: string, synthetic: boolean): Promise<Row[]> {
  const extra = await extraRows(file);
  const bg: Background = EXTRA.size > 0
    ? await loadBackground(`${wikiOf(file, synthetic)}/pages.jsonl`)
    : { cf: new Map(), total: 0 };
  return (await Deno.readTextFile(file)).split("\n").filter(Boolean).map((line, i) => {
    const r = JSON.parse(line) as {
      id: string;
      answerable: boolean;
      features: number[];
      question: string;
      passages: Passage[];
    };
    const dumped = Object.fromEntries(DUMPED.map((f, i) => [f, r.features[i]!]));
    const all: Record<string, number> = {
      ...dumped,
      ...windowSignals(parseQuestion(r.question), r.passages),
      ...alignment(parseQuestion(r.question), r.passages),
      ...(EXTRA.has("qpp") ? qpp(r.question, r.passages, bg) : {}),
      ...(EXTRA.has("ibm") ? ibm(r.question, r.passages, table, bg) : {}),
    };
    if (EXTRA_DIR && extra[i]?.id !== r.id) throw new Error(`${file}:${i + 1}: not in --extra-dir`);
    // An extra feature a question has no value for (no passage, no content word) is 0.
    const x = NAMES.map((f) => WITHOUT.has(f) ? 0 : Number(all[f] ?? extra[i]?.[f] ?? 0));
    const even = digit(r.id) % 2 === 0;
    const fit = synthetic ? !(SYN_ODD && digit(synKey(r.id)) % 2 === 0) : even;
    return { id: r.id, answerable: r.answerable, x, fit, synthetic };
  });
}

const abstain = await load(abstainFile, false);
const synthetic = (await Promise.all(synFiles.map((f) => load(f, true)))).flat()
  .filter((r) => r.fit);
const fitAbstain = abstain.filter((r) => r.fit);
const held = abstain.filter((r) => !r.fit);
const train = ONLY ? fitAbstain : [...synthetic, ...fitAbstain];

// Class-balanced weights within each source; one abstain question weighs ABSTAIN_WEIGHT.
const counts = new Map<string, number>();
for (const r of train) {
  const k = `${r.synthetic}${r.answerable}`;
  counts.set(k, (counts.get(k) ?? 0) + 1);
}
const w = train.map((r) => {
  const setSize = (counts.get(`${r.synthetic}true`) ?? 0) +
    (counts.get(`${r.synthetic}false`) ?? 0);
  const scale = r.synthetic || ONLY ? 1 : ABSTAIN_WEIGHT;
  return scale * setSize / (2 * counts.get(`${r.synthetic}${r.answerable}`)!);
});

// Candidate thresholds: up to 32 quantiles of each feature over the training rows.
const d = NAMES.length;
const cuts = NAMES.map((_, j) => {
  const v = [...new Set(train.map((r) => r.x[j]!))].sort((a, b) => a - b);
  if (v.length <= 33) return v.slice(0, -1).map((a, i) => (a + v[i + 1]!) / 2);
  return Array.from({ length: 32 }, (_, i) => v[Math.floor(((i + 1) * v.length) / 33)]!);
});

/** Each training row's bin per feature: the number of cuts below its value. */
const bins = train.map((r) =>
  r.x.map((v, j) => {
    const c = cuts[j]!;
    let b = 0;
    while (b < c.length && v > c[b]!) b++;
    return b;
  })
);

type Tree = { f: number[]; t: number[]; v: number[] };
const internal = 2 ** DEPTH - 1;

function leafOf(tree: Pick<Tree, "f" | "t">, x: number[]): number {
  let i = 0;
  for (let level = 0; level < DEPTH; level++) {
    i = 2 * i + 1 + (x[tree.f[i]!]! > tree.t[i]! ? 1 : 0);
  }
  return i - internal;
}

/** Grows one tree on gradients g and hessians h (Newton leaves, shrunk by RATE). */
function grow(g: number[], h: number[]): Tree {
  const f = new Array(internal).fill(0);
  const t = new Array(internal).fill(Infinity);
  let groups: number[][] = [train.map((_, i) => i)];
  for (let level = 0; level < DEPTH; level++) {
    const next: number[][] = [];
    groups.forEach((rows, k) => {
      const node = 2 ** level - 1 + k;
      let best = { gain: 0, f: 0, t: Infinity };
      const G = rows.reduce((s, i) => s + g[i]!, 0);
      const H = rows.reduce((s, i) => s + h[i]!, 0);
      for (let j = 0; j < d; j++) {
        // Histogram of gradient and hessian sums by bin, then a sweep over the cuts.
        const nb = cuts[j]!.length + 1;
        const hg = new Float64Array(nb), hh = new Float64Array(nb), hn = new Int32Array(nb);
        for (const i of rows) {
          const b = bins[i]![j]!;
          hg[b] = hg[b]! + g[i]!;
          hh[b] = hh[b]! + h[i]!;
          hn[b] = hn[b]! + 1;
        }
        let gl = 0, hl = 0, nl = 0;
        for (let b = 0; b + 1 < nb; b++) {
          gl += hg[b]!;
          hl += hh[b]!;
          nl += hn[b]!;
          if (nl < MIN_LEAF || rows.length - nl < MIN_LEAF) continue;
          const gain = gl * gl / (hl + 1) + (G - gl) ** 2 / (H - hl + 1) - G * G / (H + 1);
          if (gain > best.gain) best = { gain, f: j, t: cuts[j]![b]! };
        }
      }
      f[node] = best.f;
      t[node] = best.t;
      next.push(rows.filter((i) => train[i]!.x[best.f]! <= best.t));
      next.push(rows.filter((i) => train[i]!.x[best.f]! > best.t));
    });
    groups = next;
  }
  const v = groups.map((rows) => {
    const G = rows.reduce((s, i) => s + g[i]!, 0);
    const H = rows.reduce((s, i) => s + h[i]!, 0);
    return Math.round((-RATE * G / (H + 1)) * 1e4) / 1e4;
  });
  return { f, t, v };
}

const pos = train.reduce((s, r, i) => s + (r.answerable ? w[i]! : 0), 0);
const bias = Math.log(pos / (w.reduce((s, v) => s + v, 0) - pos));
const trees: Tree[] = [];
const margin = train.map(() => bias);
for (let round = 0; TREES_MODE && round < ROUNDS; round++) {
  const p = margin.map((m) => 1 / (1 + Math.exp(-m)));
  const g = p.map((q, i) => w[i]! * (q - (train[i]!.answerable ? 1 : 0)));
  const h = p.map((q, i) => w[i]! * q * (1 - q));
  const tree = grow(g, h);
  trees.push(tree);
  train.forEach((r, i) => margin[i]! += tree.v[leafOf(tree, r.x)]!);
}
// For comparison (--logistic): an L2 logistic regression on the same rows and weights.
let linear: ((x: number[]) => number) | null = null;
let lwOut: number[] = [];
let lbOut = 0;
if (!TREES_MODE) {
  const fitted = fitLogistic(
    train.map((r) => r.x),
    train.map((r) => r.answerable),
    w,
    { iterations: 1500, l2: 0.01 },
  );
  // In raw feature units, for src/ask/verdict_model.ts.
  lwOut = fitted.w;
  lbOut = fitted.b;
  linear = (x) => x.reduce((s, v, j) => s + lwOut[j]! * v, lbOut);
}
const prob = (r: Row) =>
  1 /
  (1 + Math.exp(
    -(linear ? linear(r.x) : trees.reduce((s, tr) => s + tr.v[leafOf(tr, r.x)]!, bias)),
  ));

function auc(set: Row[]): number {
  const p = set.filter((r) => r.answerable).map(prob);
  const n = set.filter((r) => !r.answerable).map(prob).sort((a, b) => a - b);
  let wins = 0;
  for (const a of p) {
    for (const b of n) wins += a > b ? 1 : a === b ? 0.5 : 0;
  }
  return wins / (p.length * n.length);
}
function rates(set: Row[], t: number) {
  const unc = set.filter((r) => !r.answerable);
  const cov = set.filter((r) => r.answerable);
  return {
    uncovered: unc.filter((r) => prob(r) < t).length / unc.length,
    covered: cov.filter((r) => prob(r) < t).length / cov.length,
  };
}
/** The threshold with the best Youden's J (uncovered flagged minus covered flagged) on a set. */
function youden(set: Row[]): number {
  let threshold = 0.5;
  let bestJ = -1;
  for (let t = 0.05; t <= 0.95; t += 0.01) {
    const r = rates(set, t);
    if (r.uncovered - r.covered > bestJ) {
      bestJ = r.uncovered - r.covered;
      threshold = Math.round(t * 100) / 100;
    }
  }
  return threshold;
}
// The verdict's threshold: Youden's J on all fitting rows (synthetic and the abstain fitting
// half), steadier than on the 291 abstain questions alone.
const threshold = youden(train);
const f3 = (v: number) => v.toFixed(3);
console.log(
  `train ${train.length} (synthetic ${synthetic.length}, abstain fit ${fitAbstain.length}), ` +
    `held-out ${held.length}; ${ROUNDS} trees of depth ${DEPTH}, rate ${RATE}, min leaf ${MIN_LEAF}`,
);
if (BY_PAGE) {
  // SQuAD's paragraphs hold both abstain and synthetic questions: the held-out questions whose
  // paragraph no table question came from (odd sha1 of the gold page), and the others.
  const outside = held.filter((r) => digit(goldOf.get(r.id)!) % 2 === 1);
  const inside = held.filter((r) => digit(goldOf.get(r.id)!) % 2 === 0);
  console.log(
    `held-out AUC, gold paragraph outside the table's half ${f3(auc(outside))} ` +
      `(${outside.length}), inside ${f3(auc(inside))} (${inside.length})`,
  );
}
const synSplit = synthetic.length > 0 ? ` synthetic ${f3(auc(synthetic))}` : "";
console.log(
  `AUC abstain fit ${f3(auc(fitAbstain))} held-out ${f3(auc(held))} all ${
    f3(auc(abstain))
  }${synSplit}`,
);
console.log(
  `threshold (Youden's J on all fitting rows): ${threshold.toFixed(2)}; ` +
    `on the abstain fitting half alone: ${youden(fitAbstain).toFixed(2)}`,
);
{
  const h = rates(held, threshold);
  const f = rates(fitAbstain, threshold);
  // Precision of `supported` on the held-out half, classes as they are (balanced there).
  const nu = held.filter((r) => !r.answerable).length;
  const nc = held.length - nu;
  const tp = (1 - h.covered) * nc;
  const fp = (1 - h.uncovered) * nu;
  console.log(
    `at ${threshold}: fitting half ${f3(f.uncovered)}/${f3(f.covered)}; ` +
      `precision of supported on the held-out half ${f3(tp / (tp + fp))}`,
  );
}
console.log("threshold: held-out uncovered/covered flagged | all 600");
for (
  const t of [threshold, 0.2, 0.3, 0.35, 0.4, 0.45, 0.47, 0.48, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9]
) {
  const a = rates(held, t);
  const b = rates(abstain, t);
  console.log(
    `  ${t.toFixed(2)}: ${f3(a.uncovered)}/${f3(a.covered)} | ${f3(b.uncovered)}/${f3(b.covered)}`,
  );
}
{
  // Report only (never chosen on it): the threshold where the held-out half's covered flagged
  // is nearest 0.10, and what it flags of the uncovered there.
  let near = { t: 0, gap: Infinity };
  for (let t = 0.01; t < 0.995; t += 0.01) {
    const gap = Math.abs(rates(held, t).covered - 0.1);
    if (gap < near.gap) near = { t, gap };
  }
  const a = rates(held, near.t);
  console.log(
    `held-out covered flagged nearest 0.10 at ${near.t.toFixed(2)}: ` +
      `${f3(a.uncovered)}/${f3(a.covered)} (report only)`,
  );
}
// `--probs FILE`: every abstain question's probability (id, answerable, held-out or not), to
// compare two models question by question (a paired bootstrap of their held-out AUCs). Name it
// other than *.jsonl, which would be read as a dump.
if (opt("probs")) {
  await Deno.writeTextFile(
    opt("probs")!,
    abstain.map((r) =>
      JSON.stringify({ id: r.id, answerable: r.answerable, held: !r.fit, p: prob(r) })
    )
      .join("\n") + "\n",
  );
}
// Which features the trees split on (how many nodes).
if (TREES_MODE) console.log("splits per feature:", splitCounts());
function splitCounts() {
  const uses = new Map<string, number>();
  for (const tr of trees) {
    for (const j of tr.f) uses.set(NAMES[j]!, (uses.get(NAMES[j]!) ?? 0) + 1);
  }
  return [...uses].sort((a, b) => b[1] - a[1]).map(([f, n]) => `${f} ${n}`).join(", ");
}

if (Deno.args.includes("--write") && (EXTRA.size > 0 || EXTRA_DIR)) {
  throw new Error("--extra features are experimental: not written");
}
if (Deno.args.includes("--write") && !TREES_MODE) {
  const body = [
    '// Generated by scripts/fit_verdict.ts (docs/answers.md, "The verdict"): do not edit.',
    "",
    "/** Weights of the logistic verdict, in raw feature units, by feature name (`FEATURES`). */",
    "export const WEIGHTS = {",
    ...FEATURES.map((f, j) => `  ${f}: ${lwOut[j]!.toFixed(4)},`),
    "};",
    `export const BIAS = ${lbOut.toFixed(4)};`,
    "/** At or above this probability the answer is `supported` (Youden's J on the fitting rows). */",
    `export const SUPPORTED_AT = ${threshold};`,
    "",
  ].join("\n");
  await Deno.writeTextFile(new URL("../src/ask/verdict_model.ts", import.meta.url), body);
  console.log("wrote src/ask/verdict_model.ts");
}

if (Deno.args.includes("--single")) {
  // Each feature alone: its ROC AUC (either direction) on the abstain set and the synthetic one.
  const single = (set: Row[], j: number) => {
    const p = set.filter((r) => r.answerable).map((r) => r.x[j]!);
    const n = set.filter((r) => !r.answerable).map((r) => r.x[j]!);
    let wins = 0;
    for (const a of p) for (const b of n) wins += a > b ? 1 : a === b ? 0.5 : 0;
    const v = wins / (p.length * n.length);
    return Math.max(v, 1 - v);
  };
  const sample = synthetic.filter((_, i) => i % 4 === 0);
  for (let j = 0; j < d; j++) {
    console.log(
      `  ${NAMES[j]}: abstain ${f3(single(abstain, j))} synthetic ${f3(single(sample, j))}`,
    );
  }
}

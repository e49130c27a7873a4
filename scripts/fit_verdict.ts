/**
 * Fits the verdict's logistic model (src/ask/verdict.ts) on half of a features dump and reports
 * it on the other half and on all (docs/answers.md).
 *
 *   EVAL_DUMP_PASSAGES=1 deno task eval ../shared/eval/squad-abstain --ask --features feats.jsonl
 *   deno run --allow-read scripts/fit_verdict.ts feats.jsonl
 *
 * Questions go to the fitting half when the last hex digit of sha1(id) is even. With passages
 * in the dump, the window signals (src/ask/signals.ts) are recomputed from them, so a change
 * to those features can be fitted without re-running the eval.
 */
import { createHash } from "node:crypto";
import { windowSignals } from "../src/ask/signals.ts";
import { FEATURES } from "../src/ask/verdict.ts";
import type { Passage } from "../src/ask/passages.ts";

type Row = { id: string; answerable: boolean; x: number[]; fit: boolean };

const [file, ...rest] = Deno.args;
if (!file) throw new Error("usage: fit_verdict.ts feats.jsonl [--l2 0.02]");
const l2 = Number(rest[rest.indexOf("--l2") + 1] ?? 0.02) || 0.02;

const rows: Row[] = (await Deno.readTextFile(file)).split("\n").filter(Boolean).map((line) => {
  const r = JSON.parse(line) as {
    id: string;
    answerable: boolean;
    features: number[];
    question?: string;
    passages?: Passage[];
  };
  let x = r.features;
  if (r.question && r.passages) {
    // Recompute the window signals from the dumped passages (the last features in order).
    const s = windowSignals(r.question, r.passages);
    const names = FEATURES as readonly string[];
    x = names.map((f, i) => f in s ? Number(s[f as keyof typeof s]) : r.features[i]!);
  }
  const digit = parseInt(createHash("sha1").update(r.id).digest("hex").slice(-1), 16);
  return { id: r.id, answerable: r.answerable, x, fit: digit % 2 === 0 };
});

const fit = rows.filter((r) => r.fit);
const held = rows.filter((r) => !r.fit);
const d = FEATURES.length;
const mean = FEATURES.map((_, j) => fit.reduce((s, r) => s + r.x[j]!, 0) / fit.length);
const sd = FEATURES.map((_, j) =>
  Math.sqrt(fit.reduce((s, r) => s + (r.x[j]! - mean[j]!) ** 2, 0) / fit.length) || 1
);
const z = (x: number[]) => x.map((v, j) => (v - mean[j]!) / sd[j]!);

// Logistic regression by gradient descent on standardised features.
let w = new Array(d).fill(0);
let b = 0;
for (let it = 0; it < 4000; it++) {
  const gw = new Array(d).fill(0);
  let gb = 0;
  for (const r of fit) {
    const xs = z(r.x);
    const p = 1 / (1 + Math.exp(-(b + xs.reduce((s, v, j) => s + v * w[j], 0))));
    const e = p - (r.answerable ? 1 : 0);
    xs.forEach((v, j) => gw[j] += e * v);
    gb += e;
  }
  w = w.map((v, j) => v - 0.5 * (gw[j] / fit.length + l2 * v));
  b -= 0.5 * gb / fit.length;
}
// Back to raw feature units, for src/ask/verdict.ts.
const weights = w.map((v, j) => v / sd[j]!);
const bias = b - w.reduce((s, v, j) => s + v * mean[j]! / sd[j]!, 0);
const prob = (r: Row) =>
  1 / (1 + Math.exp(-(bias + r.x.reduce((s, v, j) => s + v * weights[j]!, 0))));

function auc(set: Row[]): number {
  const pos = set.filter((r) => r.answerable).map(prob);
  const neg = set.filter((r) => !r.answerable).map(prob);
  let wins = 0;
  for (const p of pos) for (const q of neg) wins += p > q ? 1 : p === q ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}
function rates(set: Row[], t: number) {
  const unc = set.filter((r) => !r.answerable);
  const cov = set.filter((r) => r.answerable);
  return {
    uncovered_flagged: unc.filter((r) => prob(r) < t).length / unc.length,
    covered_flagged: cov.filter((r) => prob(r) < t).length / cov.length,
  };
}
// Thresholds on the fitting half only: Youden's J (the verdict's), and the lowest that flags
// 90% of its uncovered questions (for reference).
const uncFit = fit.filter((r) => !r.answerable).map(prob).sort((a, b) => a - b);
const at90 = uncFit[Math.ceil(0.9 * uncFit.length) - 1]! + 1e-6;
let threshold = 0.5;
let bestJ = -1;
for (let t = 0.2; t <= 0.8; t += 0.01) {
  const r = rates(fit, t);
  if (r.uncovered_flagged - r.covered_flagged > bestJ) {
    bestJ = r.uncovered_flagged - r.covered_flagged;
    threshold = Math.round(t * 100) / 100;
  }
}

console.log(`fit ${fit.length} held-out ${held.length}, l2 ${l2}`);
console.log("weights:");
FEATURES.forEach((f, j) =>
  console.log(`  ${f}: ${weights[j]!.toFixed(3)}, // z ${w[j].toFixed(2)}`)
);
console.log(`  bias: ${bias.toFixed(3)}`);
console.log(
  `AUC fit ${auc(fit).toFixed(3)} held-out ${auc(held).toFixed(3)} all ${auc(rows).toFixed(3)}`,
);
console.log(`threshold (Youden's J on the fitting half): ${threshold.toFixed(2)}`);
console.log(`threshold (90% of fit-half uncovered flagged): ${at90.toFixed(3)}`);
console.log("uncovered_flagged/covered_flagged:");
for (const t of [threshold, at90, 0.3, 0.4, 0.5, 0.6, 0.7]) {
  const f = rates(held, t);
  const a = rates(rows, t);
  console.log(
    `t=${t.toFixed(3)} held-out ${f.uncovered_flagged.toFixed(3)}/${f.covered_flagged.toFixed(3)}` +
      ` all ${a.uncovered_flagged.toFixed(3)}/${a.covered_flagged.toFixed(3)}`,
  );
}

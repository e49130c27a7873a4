/**
 * L2-regularised logistic regression by gradient descent on standardised inputs, each row
 * weighed (`weights`); shared by the verdict's fitting scripts (scripts/fit_verdict.ts,
 * scripts/fit_verdict_docs.ts). Returns the weights and bias in the inputs' raw units.
 */
export function fitLogistic(
  xs: number[][],
  ys: boolean[],
  weights: number[],
  { iterations, l2, rate = 0.5 }: { iterations: number; l2: number; rate?: number },
): { w: number[]; b: number } {
  const d = xs[0]?.length ?? 0;
  const n = xs.length;
  const mean = Array.from({ length: d }, (_, j) => xs.reduce((s, x) => s + x[j]!, 0) / n);
  const sd = Array.from(
    { length: d },
    (_, j) => Math.sqrt(xs.reduce((s, x) => s + (x[j]! - mean[j]!) ** 2, 0) / n) || 1,
  );
  const zs = xs.map((x) => x.map((v, j) => (v - mean[j]!) / sd[j]!));
  const total = weights.reduce((s, v) => s + v, 0);
  let w: number[] = new Array(d).fill(0);
  let b = 0;
  for (let it = 0; it < iterations; it++) {
    const gw: number[] = new Array(d).fill(0);
    let gb = 0;
    zs.forEach((z, i) => {
      const p = 1 / (1 + Math.exp(-(b + z.reduce((s, v, j) => s + v * w[j]!, 0))));
      const e = weights[i]! * (p - (ys[i] ? 1 : 0));
      z.forEach((v, j) => gw[j]! += e * v);
      gb += e;
    });
    w = w.map((v, j) => v - rate * (gw[j]! / total + l2 * v));
    b -= rate * gb / total;
  }
  return {
    w: w.map((v, j) => v / sd[j]!),
    b: b - w.reduce((s, v, j) => s + v * mean[j]! / sd[j]!, 0),
  };
}

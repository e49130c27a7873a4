/**
 * Experimental verdict features for scripts/fit_verdict.ts (`--extra qpp,ibm`), measured and
 * not shipped (docs/answers.md, "The verdict", what was tried):
 *
 * - `qpp`: query-performance predictors from IR, over the retrieved passages and a background
 *   language model of the wiki the question was asked of (its pages.jsonl): WIG, NQC, clarity,
 *   score drop-offs, distinct articles, the top article's share, and the best window's
 *   query-likelihood ratio against the collection (Dirichlet-smoothed).
 * - `ibm`: a monolingual IBM Model 1 translation table P(question word | sentence word), learned
 *   by EM (a null word, an identity prior) from SQuAD questions paired with their gold sentence,
 *   then the best window's translation likelihood per question word and its margin over other
 *   pages.
 */
import { createHash } from "node:crypto";
import { stem, STOPWORDS, tokenize } from "../src/text/terms.ts";
import type { Passage } from "../src/ask/passages.ts";
import { plainText, splitSentences } from "../src/text/sentences.ts";

/** Stemmed content words of a text, with repeats (for language models). */
export function words(text: string): string[] {
  return tokenize(text).filter((t) => !STOPWORDS.has(t)).map(stem);
}

/** The last hex digit of sha1(id): even → the fitting half (docs/answers.md). */
export function digit(id: string): number {
  return parseInt(createHash("sha1").update(id).digest("hex").slice(-1), 16);
}

/** A unigram model of a collection: counts of each word and of all words. */
export type Background = { cf: Map<string, number>; total: number };

/** The background model of a wiki from its pages.jsonl (markdown of every page). */
export async function loadBackground(pagesFile: string): Promise<Background> {
  const cf = new Map<string, number>();
  let total = 0;
  for (const line of (await Deno.readTextFile(pagesFile)).split("\n")) {
    if (!line.trim()) continue;
    const page = JSON.parse(line) as { markdown: string };
    for (const w of words(page.markdown)) {
      cf.set(w, (cf.get(w) ?? 0) + 1);
      total++;
    }
  }
  return { cf, total };
}

/** P(w | collection), add-half smoothed so a word the wiki lacks has a small probability. */
function pc(bg: Background, w: string): number {
  return ((bg.cf.get(w) ?? 0) + 0.5) / (bg.total + 1);
}

function counts(ws: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of ws) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Sentence windows (a sentence and the next one) of each passage, as word lists. */
function windows(passages: Passage[]): { page: string; words: string[] }[] {
  const out: { page: string; words: string[] }[] = [];
  for (const p of passages) {
    const sentences = splitSentences(p.text)
      .filter((s) => s.kind !== "heading" && s.kind !== "markup")
      .map((s) => plainText(s));
    sentences.forEach((s, i) =>
      out.push({ page: p.page, words: words(`${s} ${sentences[i + 1] ?? ""}`) })
    );
  }
  return out;
}

/** The article a page belongs to: "Warsaw/12" → "Warsaw". */
function article(page: string): string {
  return page.replace(/\/\d+$/, "");
}

const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / (v.length || 1);
const sd = (v: number[]) => Math.sqrt(mean(v.map((x) => (x - mean(v)) ** 2)));

export const QPP = [
  "wig",
  "nqc",
  "nqcFused",
  "clarity",
  "drop2",
  "drop5",
  "articles",
  "topArticle",
  "qlWindow",
  "qlWindowMargin",
  "qlTop",
  "avgIctf",
] as const;

/** Query-performance predictors of a question against its passages (see the file's comment). */
export function qpp(
  question: string,
  passages: Passage[],
  bg: Background,
): Record<(typeof QPP)[number], number> {
  const q = words(question);
  const nq = q.length || 1;
  const qlC = q.reduce((s, t) => s + Math.log(pc(bg, t)), 0);
  const MU = 100;
  const docs = passages.map((p) => counts(words(`${p.title} ${p.text}`)));
  const lens = docs.map((d) => [...d.values()].reduce((s, v) => s + v, 0));
  const ql = docs.map((d, i) =>
    q.reduce((s, t) => s + Math.log(((d.get(t) ?? 0) + MU * pc(bg, t)) / (lens[i]! + MU)), 0)
  );
  const k = Math.min(5, ql.length);
  const top = [...ql].sort((a, b) => b - a).slice(0, k);
  // Clarity: KL of the query model (passages weighted by their likelihood) to the collection.
  const maxQl = Math.max(...ql);
  const pd = ql.map((v) => Math.exp(v - maxQl));
  const z = pd.reduce((s, v) => s + v, 0) || 1;
  const pq = new Map<string, number>();
  docs.forEach((d, i) => {
    for (const [w, c] of d) {
      pq.set(w, (pq.get(w) ?? 0) + (pd[i]! / z) * (0.6 * c / lens[i]! + 0.4 * pc(bg, w)));
    }
  });
  let clarity = 0;
  for (const [w, p] of pq) clarity += p * Math.log(p / pc(bg, w));
  // The best window's query likelihood against the collection's, per question word.
  const MU_S = 20;
  const perPage = new Map<string, number>();
  let best = { v: -Infinity, page: "" };
  for (const w of windows(passages)) {
    const c = counts(w.words);
    const v = q.reduce(
          (s, t) => s + Math.log(((c.get(t) ?? 0) + MU_S * pc(bg, t)) / (w.words.length + MU_S)),
          0,
        ) / nq - qlC / nq;
    perPage.set(w.page, Math.max(perPage.get(w.page) ?? -Infinity, v));
    if (v > best.v) best = { v, page: w.page };
  }
  const others = [...perPage].filter(([p]) => p !== best.page).map(([, v]) => v);
  const scores = passages.map((p) => p.score);
  const s = (i: number) => scores[Math.min(i, scores.length - 1)] ?? 0;
  const arts = passages.map((p) => article(p.page));
  if (passages.length === 0) {
    return Object.fromEntries(QPP.map((f) => [f, 0])) as Record<(typeof QPP)[number], number>;
  }
  return {
    wig: (mean(top) - qlC) / nq,
    nqc: sd(top) / Math.abs(qlC / nq || 1),
    nqcFused: sd(scores) / (mean(scores) || 1),
    clarity,
    drop2: s(0) / (s(1) || 1e-6),
    drop5: s(0) / (s(4) || 1e-6),
    articles: new Set(arts).size,
    topArticle: arts.filter((a) => a === arts[0]).length / arts.length,
    qlWindow: Number.isFinite(best.v) ? best.v : 0,
    qlWindowMargin: Number.isFinite(best.v) ? best.v - Math.max(best.v - 5, ...others) : 0,
    qlTop: (ql[0]! - qlC) / nq,
    avgIctf: -qlC / nq,
  };
}

/** P(question word | sentence word), plus the null word's row under "". */
export type Table = Map<string, Map<string, number>>;

/** A training pair: a question's words and its gold sentence's words. */
export type Pair = { q: string[]; s: string[] };

/**
 * IBM Model 1 by EM, monolingual: t(f | e) over co-occurring pairs, each sentence with a null
 * word, and a prior of ALPHA pseudo-counts on f = e at each M-step (identity).
 */
export function trainModel1(pairs: Pair[], iterations = 5, alpha = 2): Table {
  let t: Table = new Map();
  const get = (e: string, f: string) => t.get(e)?.get(f) ?? (e === f ? 0.5 : 0.01);
  for (let it = 0; it < iterations; it++) {
    const c = new Map<string, Map<string, number>>();
    const add = (e: string, f: string, v: number) => {
      const row = c.get(e) ?? new Map<string, number>();
      row.set(f, (row.get(f) ?? 0) + v);
      c.set(e, row);
    };
    for (const { q, s } of pairs) {
      const src = ["", ...s];
      for (const f of q) {
        const z = src.reduce((a, e) => a + get(e, f), 0);
        for (const e of src) add(e, f, get(e, f) / z);
      }
    }
    const next: Table = new Map();
    for (const [e, row] of c) {
      if (e !== "") row.set(e, (row.get(e) ?? 0) + alpha);
      const total = [...row.values()].reduce((a, v) => a + v, 0);
      next.set(e, new Map([...row].map(([f, v]) => [f, v / total])));
    }
    t = next;
  }
  return t;
}

/** Question–gold-sentence pairs: the gold page's sentence that holds a gold answer. */
export async function goldPairs(
  squadDir: string,
  keep: (id: string) => boolean,
): Promise<Pair[]> {
  const pages = new Map<string, string>();
  for (const line of (await Deno.readTextFile(`${squadDir}/pages.jsonl`)).split("\n")) {
    if (!line.trim()) continue;
    const p = JSON.parse(line) as { path: string; markdown: string };
    pages.set(p.path, p.markdown);
  }
  const pairs: Pair[] = [];
  for (const line of (await Deno.readTextFile(`${squadDir}/queries.jsonl`)).split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { id: string; query: string; gold: string[]; answers: string[] };
    if (!keep(r.id)) continue;
    const md = pages.get(r.gold[0]!);
    if (!md) continue;
    const sentences = splitSentences(md).filter((s) => s.kind !== "heading").map((s) =>
      plainText(s)
    );
    const hit = sentences.find((s) => r.answers.some((a) => s.includes(a))) ??
      sentences.find((s) => r.answers.some((a) => s.toLowerCase().includes(a.toLowerCase())));
    if (hit) pairs.push({ q: words(r.query), s: words(hit) });
  }
  return pairs;
}

export const IBM = ["ibm", "ibmRatio", "ibmMargin", "ibmGain"] as const;

/** The best window's translation likelihood of the question, per word, and its margins. */
export function ibm(
  question: string,
  passages: Passage[],
  table: Table,
  bg: Background,
): Record<(typeof IBM)[number], number> {
  const q = words(question);
  if (q.length === 0 || passages.length === 0) {
    return { ibm: 0, ibmRatio: 0, ibmMargin: 0, ibmGain: 0 };
  }
  const LAMBDA = 0.1;
  const t = (e: string, f: string, identity: boolean) =>
    identity || !table.has(e) ? (e === f ? 1 : 0) : table.get(e)!.get(f) ?? 0;
  const score = (ws: string[], identity: boolean) =>
    q.reduce((s, f) => {
      const p = ws.reduce((a, e) => a + t(e, f, identity), identity ? 0 : t("", f, false)) /
        (ws.length + 1);
      return s + Math.log((1 - LAMBDA) * p + LAMBDA * pc(bg, f));
    }, 0) / q.length;
  const perPage = new Map<string, number>();
  let best = { v: -Infinity, page: "" };
  let plainBest = -Infinity;
  for (const w of windows(passages)) {
    const v = score(w.words, false);
    plainBest = Math.max(plainBest, score(w.words, true));
    perPage.set(w.page, Math.max(perPage.get(w.page) ?? -Infinity, v));
    if (v > best.v) best = { v, page: w.page };
  }
  if (!Number.isFinite(best.v)) return { ibm: 0, ibmRatio: 0, ibmMargin: 0, ibmGain: 0 };
  const others = [...perPage].filter(([p]) => p !== best.page).map(([, v]) => v);
  const qlC = q.reduce((s, f) => s + Math.log(pc(bg, f)), 0) / q.length;
  return {
    ibm: best.v,
    ibmRatio: best.v - qlC,
    ibmMargin: best.v - Math.max(best.v - 5, ...others),
    ibmGain: best.v - plainBest,
  };
}

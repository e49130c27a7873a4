import type { AskRetrieval } from "../search/ask_retrieval.ts";
import { contentTerms, isIdentifier, tokenize } from "../text/terms.ts";
import type { Question } from "./question.ts";
import type { SentenceEvidence } from "./extractive.ts";
import type { Passage } from "./passages.ts";
import { type Signals, windowSignals } from "./signals.ts";
import { type Alignment, alignment } from "./alignment.ts";
import { BIAS, SUPPORTED_AT, WEIGHTS } from "./verdict_model.ts";

/** Everything the verdict weighs, one number each (documented in docs/answers.md). */
export type Evidence = SentenceEvidence & Signals & Alignment & {
  /** Wiki-wide rarity-weighted share of the question's terms in the best-ranked passage. */
  rareTop: number;
  /** The same share in the passage of the best sentence. */
  rareBest: number;
  /** Share of the question's terms that appear nowhere in the wiki. */
  unseen: number;
  /** Fused score of the best passage minus that of the best passage of another page. */
  margin: number;
};

/**
 * Gathers the verdict's evidence: the picker's sentence-level features, plus how much of the
 * question's wiki-wide rare vocabulary the best passages hold (from the lexical index).
 */
export function gatherEvidence(
  question: Question,
  passages: Passage[],
  terms: AskRetrieval["terms"],
  sentence: SentenceEvidence,
  bestPassage: Passage | undefined,
): Evidence {
  const top = passages[0];
  const signals = { ...windowSignals(question, passages), ...alignment(question, passages) };
  if (!top) return { ...sentence, ...signals, rareTop: 0, rareBest: 0, unseen: 1, margin: 0 };
  const best = bestPassage ?? top;
  const idf = (df: number, n: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const weights = terms.map((t) => ({ w: idf(t.df, Math.max(t.n, 1)), chunks: t.chunks }));
  const total = weights.reduce((s, t) => s + t.w, 0) || 1;
  // A term also counts as held when the passage holds it inside a compound of the question's
  // adjacent words ("roll back" in "rollback"); PostgreSQL's stems are prefixes of the words.
  const compoundParts = (p: Passage) => {
    const words = new Set(tokenize(p.text));
    const parts: string[] = [];
    for (const [a, b] of question.pairs) if (words.has(a + b)) parts.push(a, b);
    return parts;
  };
  const held = (t: { term: string; chunks: number[] }, p: Passage) =>
    t.chunks.includes(p.chunkId) || compoundParts(p).some((w) => w.startsWith(t.term));
  const share = (p: Passage) =>
    terms.reduce((s, t, i) => s + (held(t, p) ? weights[i]!.w : 0), 0) / total;
  const other = passages.find((p) => p.page !== top.page);
  return {
    ...sentence,
    ...signals,
    rareTop: share(top),
    rareBest: share(best),
    unseen: terms.length === 0 ? 0 : terms.filter((t) => t.df === 0).length / terms.length,
    margin: top.score - (other?.score ?? 0),
  };
}

/**
 * The features of the verdict's logistic model (weights in src/ask/verdict_model.ts, fitted by
 * scripts/fit_verdict.ts; docs/answers.md): the picker's sentence evidence, the wiki-wide
 * rarity evidence, the window signals (src/ask/signals.ts) and the alignment of the question
 * with its best window (src/ask/alignment.ts).
 */
export const FEATURES = [
  "best",
  "passage",
  "union",
  "bigrams",
  "rarest",
  "typeMatch",
  "rareTop",
  "rareBest",
  "unseen",
  "margin",
  "terms",
  "specific",
  "missing",
  "bestRank",
  "topSentence",
  "window",
  "specificWindow",
  "specificMissing",
  "absent",
  "run",
  "anchors",
  "answerType",
  "windowMargin",
  "heldWeight",
  "missingWeight",
  "missingMax",
  "names",
  "nameCount",
  "numbers",
  "order",
  "density",
  "nearAnswer",
  "rivals",
  "ownHeld",
] as const satisfies readonly (keyof Evidence)[];
export { SUPPORTED_AT };
/**
 * The `supported` bar when the answer comes from documentation (any page not shaped as SQuAD's,
 * `titledParagraph`), on the documentation branch's probability (`documentationAnswerability`):
 * the lowest bar at which `supported` keeps a precision of 0.90, flags 0.85 of the unanswerable
 * questions and flags no fewer of them than the bar before did, on each development set of
 * documentation with unanswerable questions (scripts/fit_verdict_docs.ts; docs/answers.md, "The
 * verdict on documentation, fitted and checked set by set" and "The documentation verdict
 * refitted with nautobot").
 */
export const SUPPORTED_AT_DOCS = 0.48;

/**
 * The documentation branch of the verdict: a logistic model over the SQuAD-fitted verdict's
 * log-odds and `entryNamed`, fitted on the answers of seven documentation sets by
 * scripts/fit_verdict_docs.ts (each set's two classes weighing alike, L2 0.1).
 */
export const DOCS_WEIGHTS = { logit: 0.706, entryNamed: 1.192 } as const;
export const DOCS_BIAS = 0.638;

/**
 * How much the question names the entry an answer shows first, when that entry is a reference
 * entry headed by a name (`isIdentifier`: `NAUTOBOT_ROOT`; or one code span): the share of the
 * heading's words the question's subject holds, else 0. A short entry of NetBox's shape (a
 * parameter's heading, its `Default:` line, a sentence or two) repeats few of the words of a
 * question told as a story and barely outscores the other pages (`margin`), so the SQuAD-fitted
 * model scores it low although the question names it ("I changed NAUTOBOT_ROOT inside
 * nautobot_config.py and files still end up in the old place. What's wrong?": 0.17).
 */
export function entryNamed(subject: Question, section: string | null): number {
  const heading = (section ?? "").split(" > ").at(-1)!.trim();
  if (!/^`[^`]+`$/.test(heading) && !isIdentifier(heading.replaceAll("`", ""))) return 0;
  const words = [...contentTerms(heading).keys()];
  if (words.length === 0) return 0;
  return words.filter((w) => subject.terms.has(w)).length / words.length;
}

/**
 * The probability that a documentation answer is supported: the SQuAD-fitted `probability`
 * recalibrated on documentation answers, with how much the question names the entry shown
 * (`entryNamed`).
 */
export function documentationAnswerability(probability: number, named: number): number {
  const p = Math.min(Math.max(probability, 1e-6), 1 - 1e-6);
  const z = DOCS_BIAS + DOCS_WEIGHTS.logit * Math.log(p / (1 - p)) +
    DOCS_WEIGHTS.entryNamed * named;
  return 1 / (1 + Math.exp(-z));
}

/**
 * The model's own bar (`SUPPORTED_AT`) on the scale of an answer's probability: for an answer
 * from documentation, the documentation branch's probability of an answer at that bar from an
 * entry the question does not name (0.65). An extractive answer under the coverage bar and a
 * language model's "not covered" are weighed against it (`assessParsed`, `checkNotCovered` in
 * src/ask/ask.ts), as they were against `SUPPORTED_AT` before the branch.
 */
export function modelBar(docs: boolean): number {
  return docs ? DOCS_MODEL_BAR : SUPPORTED_AT;
}

/** A bar of the SQuAD-fitted model carried to the documentation branch's scale (see `modelBar`). */
const onDocsScale = (bar: number) => documentationAnswerability(bar, 0);
const DOCS_MODEL_BAR = onDocsScale(SUPPORTED_AT);

// The generated model names exactly the features, checked here so the model needs no import.
const weights: Record<(typeof FEATURES)[number], number> = WEIGHTS;
/**
 * Below this probability (of the SQuAD-fitted model; carried to the documentation branch's
 * scale for an answer from documentation) a model's "covered" claim is not enough for
 * `supported`.
 */
export const UNSUPPORTED_BELOW = 0.3;
const DOCS_CLAIM_BAR = onDocsScale(UNSUPPORTED_BELOW);

/**
 * The coverage summary: `supported` when the calibrated probability reaches the bar
 * (`SUPPORTED_AT_DOCS` on `documentationAnswerability` for an answer from documentation, else
 * `SUPPORTED_AT`) and a model, if any, did not say "not covered" on weak evidence;
 * `unsupported` with nothing to cite; `partial` otherwise.
 */
export function coverageOf(
  cited: number,
  probability: number,
  covered: boolean | undefined,
  docs: boolean,
): "supported" | "partial" | "unsupported" {
  const bar = docs ? SUPPORTED_AT_DOCS : SUPPORTED_AT;
  if (cited === 0) return "unsupported";
  if (covered === false) return probability >= bar ? "partial" : "unsupported";
  const claimBar = docs ? DOCS_CLAIM_BAR : UNSUPPORTED_BELOW;
  if (covered === true) return probability >= claimBar ? "supported" : "partial";
  return probability >= bar ? "supported" : "partial";
}

/** The feature vector of some evidence, in `FEATURES` order. */
export function featureVector(e: Evidence): number[] {
  return FEATURES.map((f) => Number(e[f]));
}

/** The probability that the retrieved passages answer the question (logistic). */
export function answerability(e: Evidence): number {
  const z = FEATURES.reduce((s, f) => s + weights[f] * Number(e[f]), BIAS);
  return 1 / (1 + Math.exp(-z));
}

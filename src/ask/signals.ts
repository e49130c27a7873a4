import { contentTerms, stem, STOPWORDS, tokenize } from "../text/terms.ts";
import { withCompounds } from "./extractive.ts";
import type { Passage } from "./passages.ts";
import { plainText, splitSentences } from "../text/sentences.ts";

/**
 * Sentence-window evidence for the verdict (src/ask/verdict.ts), documented in docs/answers.md.
 * A "window" is a sentence with its next sentence in the same passage. Term weights are
 * IDF among the retrieved passages; a question word no passage holds weighs as the rarest.
 */
export type Signals = {
  /** Best weighted share of the question's words held by one window. */
  window: number;
  /** Best weighted share of the question's specific words (not topic words) in one window. */
  specificWindow: number;
  /** How many specific words the best window lacks. */
  specificMissing: number;
  /** Weighted share of the question's words held by no retrieved passage at all. */
  absent: number;
  /** Longest run of the question's consecutive words (stemmed) found in one sentence, over 6. */
  run: number;
  /** Whether the question's two rarest words stand in the best window together. */
  anchors: number;
  /** The best window holds a token of the answer type the question asks for, outside it. */
  answerType: number;
  /** `window` minus the best window's share on another page. */
  windowMargin: number;
};

const NONE: Signals = {
  window: 0,
  specificWindow: 0,
  specificMissing: 6,
  absent: 1,
  run: 0,
  anchors: 0,
  answerType: 0,
  windowMargin: 0,
};

/** The window evidence of a question against its retrieved passages. */
export function windowSignals(question: string, passages: Passage[]): Signals {
  const qTerms = [...contentTerms(question).keys()];
  if (qTerms.length === 0 || passages.length === 0) return NONE;
  const passageTerms = passages.map((p) => withCompounds(question, `${p.title} ${p.text}`));
  const df = new Map(qTerms.map((t) => [t, passageTerms.filter((s) => s.has(t)).length]));
  const n = passages.length;
  const idf = new Map(qTerms.map((t) => [t, Math.log(1 + (n + 1) / (0.5 + df.get(t)!))]));
  const weight = (ts: string[]) => ts.reduce((s, t) => s + idf.get(t)!, 0);
  const total = weight(qTerms);
  // Topic words: in the best-ranked page's title, or in at least half the passages.
  const title = new Set(contentTerms(passages[0]!.title).keys());
  const specific = qTerms.filter((t) => !title.has(t) && df.get(t)! < n / 2);
  const rarest = [...qTerms].sort((a, b) => df.get(a)! - df.get(b)!).slice(0, 2);
  const qStems = tokenize(question).map(stem);
  const kind = answerKind(question);
  const qWords = new Set(tokenize(question));
  let best = { share: -1, specific: 0, missing: specific.length, anchors: 0, type: 0, page: "" };
  let run = 0;
  const perPage = new Map<string, number>();
  for (const passage of passages) {
    const sentences = splitSentences(passage.text)
      .filter((s) => s.kind !== "heading" && s.kind !== "markup")
      .map((s) => plainText(s));
    sentences.forEach((s, i) => {
      run = Math.max(run, longestRun(qStems, tokenize(s).map(stem)));
      const text = `${s} ${sentences[i + 1] ?? ""}`;
      const terms = withCompounds(question, text);
      const held = qTerms.filter((t) => terms.has(t));
      const share = weight(held) / total;
      perPage.set(passage.page, Math.max(perPage.get(passage.page) ?? 0, share));
      if (share <= best.share) return;
      const heldSpecific = specific.filter((t) => terms.has(t));
      best = {
        share,
        specific: specific.length === 0 ? share : weight(heldSpecific) / weight(specific),
        missing: specific.length - heldSpecific.length,
        anchors: rarest.every((t) => terms.has(t)) ? 1 : 0,
        type: kind ? (hasAnswerOfKind(kind, text, qWords) ? 1 : -1) : 0,
        page: passage.page,
      };
    });
  }
  if (best.share < 0) return NONE;
  const other = Math.max(0, ...[...perPage].filter(([p]) => p !== best.page).map(([, s]) => s));
  return {
    window: best.share,
    specificWindow: best.specific,
    specificMissing: Math.min(best.missing, 6),
    absent: weight(qTerms.filter((t) => df.get(t) === 0)) / total,
    run: Math.min(run, 6) / 6,
    anchors: best.anchors,
    answerType: best.type,
    windowMargin: best.share - other,
  };
}

/** Longest run of consecutive question words (with at least one content word) in a sentence. */
function longestRun(q: string[], s: string[]): number {
  const at = new Map<string, number[]>();
  s.forEach((w, i) => at.set(w, [...(at.get(w) ?? []), i]));
  let best = 0;
  for (let i = 0; i < q.length; i++) {
    for (const j of at.get(q[i]!) ?? []) {
      let k = 0;
      let content = 0;
      while (i + k < q.length && j + k < s.length && q[i + k] === s[j + k]) {
        if (!STOPWORDS.has(q[i + k]!)) content++;
        k++;
      }
      if (content > 0) best = Math.max(best, k);
    }
  }
  return best;
}

type Kind = "number" | "date" | "person" | "place";

/** What kind of token the question asks for, when its wh-word says so. */
function answerKind(question: string): Kind | null {
  const q = question.toLowerCase();
  if (/\b(what|which) (year|decade|century|month|day|date)\b|\bwhen\b/.test(q)) return "date";
  if (/\bhow (many|much|long|old|far|tall|large|big|high)\b|\bwhat (percentage|number)\b/.test(q)) {
    return "number";
  }
  if (/\bwho(m|se)?\b/.test(q)) return "person";
  if (/\bwhere\b/.test(q)) return "place";
  return null;
}

/** Whether `text` holds a token of that kind that the question does not already hold. */
function hasAnswerOfKind(kind: Kind, text: string, qWords: Set<string>): boolean {
  const fresh = (w: string) => !qWords.has(w.toLowerCase());
  if (kind === "number") {
    return [
      ...text.matchAll(
        /\d[\d,.]*|\b(one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand|million|billion|dozen)\b/gi,
      ),
    ]
      .some((m) => fresh(m[0]));
  }
  if (kind === "date") {
    return [
      ...text.matchAll(
        /\b\d{3,4}s?\b|\b(January|February|March|April|May|June|July|August|September|October|November|December|century|centuries)\b/g,
      ),
    ]
      .some((m) => fresh(m[0]));
  }
  // Names: capitalised words not at the sentence start and not in the question.
  const caps = [...text.matchAll(/(?<=[a-z,;:]\s+|\b(?:in|at|from|of|by)\s+)[A-Z][a-z]+/g)]
    .map((m) => m[0]);
  return caps.some(fresh);
}

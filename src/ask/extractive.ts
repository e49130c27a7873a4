import { contentTerms } from "../text/terms.ts";
import type { Passage } from "./passages.ts";
import { type Question, withCompounds } from "./question.ts";
import { sectioned } from "./located_sentences.ts";
import { type Pick, toPick } from "./pick.ts";
import { candidatesOf, scoreCandidates, type Scored } from "./candidates.ts";
import { chooseSentences, topPageTerms } from "./choose_sentences.ts";
import { inPageOrder, withContinuations } from "./continuations.ts";
import { wholeShape } from "./whole_shape.ts";
import { namedByHeading } from "./heading_names.ts";

export { locatedSentences, sectioned } from "./located_sentences.ts";

/** What the picker saw, for the verdict (src/ask/verdict.ts). */
export type SentenceEvidence = {
  /** Rarity-weighted share of the question's words in the best sentence. */
  best: number;
  /** The same share in the best sentence's whole passage, with its title and section. */
  passage: number;
  /** The same share over all picked sentences. */
  union: number;
  /** Share of the question's adjacent word pairs that stand together in the best sentence. */
  bigrams: number;
  /** Whether the question's rarest word (among retrieved sentences) is in the best sentence. */
  rarest: boolean;
  /** Whether the best sentence holds a number where the question asks for one. */
  typeMatch: number;
  /** How many content words the question has. */
  terms: number;
  /** `best`, counting only the question's words that are not in the best page's title. */
  specific: number;
  /** How many of the question's content words the best sentence lacks. */
  missing: number;
  /** Retrieval rank of the best sentence's passage (0 is the best-ranked). */
  bestRank: number;
  /** The best share of the question's words in one sentence of the best-ranked passage. */
  topSentence: number;
};

/**
 * Chooses the sentences that best answer the question: each scores the share of the
 * question's content words it holds, each word weighted by how rare it is among the
 * retrieved sentences, plus a prior for the passage's rank. The best one always goes in, then
 * the best sentence of each of the top pages, then others that score at least 60% of the best
 * and add a passage or a word of the question. Tuned on SQuAD (docs/answers.md).
 */
export function pickSentences(
  question: Question,
  passages: Passage[],
  /** The passage the best unit must stand in, when one of its sentences holds a word asked. */
  within?: Passage,
): {
  picks: Pick[];
  /** The passage of the best unit (the answer shows its section first, in page order). */
  bestPassage?: Passage;
  coverage: number;
  /** Search ranked the best sentence's passage first (`agreed`). */
  agreed: boolean;
  /** `agreed`, and the best sentence holds the amount the question asks for (`agreedOnAmount`). */
  agreedOnAmount: boolean;
  evidence: SentenceEvidence;
} {
  const qTerms = question.asked;
  if (qTerms.length === 0 || passages.length === 0) {
    return none(qTerms);
  }
  const candidates = candidatesOf(question, passages);
  if (candidates.length === 0) {
    return none(qTerms);
  }
  const { idf, covered, scored } = scoreCandidates(qTerms, candidates);
  const best = (within && scored.find((c) => c.passage === within && c.coverage > 0)) ||
    scored[0]!;
  const agrees = agreed(question, best, passages);
  const { chosen, addresses, dropped, example } = chooseSentences(
    question,
    best,
    scored,
    passages,
  );
  const picks = withContinuations(
    chosen.map((c) => ({ ...toPick(c), terms: c.terms })),
    question,
    best.defines || best.onNamedPage || best.named ? question.topic : null,
    question.wants.code,
    example && `${example.passage.pageId}:${example.sentence.start}`,
  );
  // What the answer and the best sentence of each of the top pages hold together: how much of
  // the question the retrieved passages reach, whether or not the answer shows those pages (a
  // documentation answer keeps to one section).
  const union = new Set([
    ...picks.flatMap((c) => [...c.terms]),
    ...dropped.flatMap((c) => [...c.terms]),
    ...(sectioned(best.passage) ? topPageTerms(scored, passages, best, addresses) : []),
  ]);
  return {
    picks: namedByHeading(
      question,
      inPageOrder(
        wholeShape(picks.map(({ terms, ...pick }) => ({ ...pick, coverage: covered(terms) }))),
      ),
    ),
    bestPassage: best.passage,
    coverage: covered(union),
    agreed: agrees,
    agreedOnAmount: agrees && question.wants.amount && !best.untyped,
    evidence: evidenceOf(question, best, scored, { idf, covered, union }),
  };
}

/** How many of the question's words the best sentence holds (its heading's too) to agree. */
const AGREED_WORDS = 2;

/**
 * Whether search and the picker agree on where the answer is: the best sentence stands in the
 * passage search ranked first and holds two of the question's words (`AGREED_WORDS`), and
 * every name the question holds ("RabbitMQ", "OIDC") is in the passages. Such an answer is
 * shown even when it holds few of the question's words: an operator's question carries its
 * own story ("journald already stamps each line, so … How do we drop them?"), whose words no
 * page has, and the section search ranks first answers it ("If `-T false` then log entries
 * are not timestamped"). A name no passage holds is what the question is about and the wiki
 * is not (a product it does not document); one shared word is a coincidence ("the company's
 * head office" and a sentence on the forge's permissions).
 */
function agreed(question: Question, best: Scored, passages: Passage[]): boolean {
  if (best.rank !== 0) return false;
  if (question.asked.filter((t) => best.terms.has(t)).length < AGREED_WORDS) return false;
  const text = passages.map((p) => `${p.title} ${p.section ?? ""} ${p.text}`).join(" ")
    .toLowerCase();
  return question.names.every((n) => text.includes(n));
}

/** What the picker gives a question no sentence answers. */
function none(qTerms: string[]) {
  return {
    picks: [],
    coverage: 0,
    agreed: false,
    agreedOnAmount: false,
    evidence: noEvidence(qTerms),
  };
}

/** The evidence of a question no sentence answers. */
function noEvidence(qTerms: string[]): SentenceEvidence {
  return {
    best: 0,
    passage: 0,
    union: 0,
    bigrams: 0,
    rarest: false,
    typeMatch: 0,
    terms: qTerms.length,
    specific: 0,
    missing: qTerms.length,
    bestRank: 8,
    topSentence: 0,
  };
}

/** What the verdict reads of the picker's work (`SentenceEvidence`). */
function evidenceOf(
  question: Question,
  best: Scored,
  scored: Scored[],
  { idf, covered, union }: {
    idf: Map<string, number>;
    covered: (terms: Set<string>) => number;
    union: Set<string>;
  },
): SentenceEvidence {
  const qTerms = question.asked;
  const passageTerms = withCompounds(
    question,
    `${best.passage.title} ${best.passage.section ?? ""} ${best.passage.text}`,
  );
  const rarest = [...idf].sort((a, b) => b[1] - a[1])[0]![0];
  const titleTerms = new Set(contentTerms(best.passage.title).keys());
  const own = qTerms.filter((t) => !titleTerms.has(t));
  const ownTotal = own.reduce((sum, t) => sum + idf.get(t)!, 0);
  const specific = ownTotal === 0
    ? best.coverage
    : own.reduce((sum, t) => sum + (best.terms.has(t) ? idf.get(t)! : 0), 0) / ownTotal;
  return {
    best: best.coverage,
    passage: covered(passageTerms),
    union: covered(union),
    bigrams: bigramShare(qTerms, best.plain),
    rarest: best.terms.has(rarest),
    typeMatch: typeMatch(question, best.plain),
    terms: qTerms.length,
    specific,
    missing: qTerms.filter((t) => !best.terms.has(t)).length,
    bestRank: best.rank,
    topSentence: Math.max(0, ...scored.filter((c) => c.rank === 0).map((c) => c.coverage)),
  };
}

/** Share of the question's adjacent content-word pairs that stand within 3 words in `text`. */
function bigramShare(qTerms: string[], text: string): number {
  if (qTerms.length < 2) return 0;
  const words = [...contentTerms(text).keys()];
  const at = new Map<string, number[]>();
  words.forEach((w, i) => at.set(w, [...(at.get(w) ?? []), i]));
  let hit = 0;
  for (let i = 0; i + 1 < qTerms.length; i++) {
    const a = at.get(qTerms[i]!) ?? [];
    const b = at.get(qTerms[i + 1]!) ?? [];
    if (a.some((x) => b.some((y) => Math.abs(x - y) <= 3))) hit++;
  }
  return hit / (qTerms.length - 1);
}

/** 1 when the question asks for a number or a date and the sentence holds one, -1 when not. */
function typeMatch(question: Question, sentence: string): number {
  if (!question.wants.numberOrDate) return 0;
  return /\d/.test(sentence) ? 1 : -1;
}

import { contentTerms } from "../search/terms.ts";
import type { Passage } from "./passages.ts";
import { isMarkupOnly, splitSentences } from "./sentences.ts";

/** A sentence chosen for an extractive answer. */
export type Pick = { passage: Passage; sentence: string; coverage: number };

/** At most this many sentences make an extractive answer. */
const MAX_SENTENCES = 4;
/** Weight of the passage's retrieval rank beside the sentence's own match. */
const RANK_PRIOR = 0.3;
/** A further sentence must score at least this share of the best one. */
const FOLLOW = 0.6;
/** The best-ranked pages that each get their best sentence in… */
const TOP_PAGES = 3;
/** …when it matches at least this share of what the best sentence matches. */
const MIN_SHARE = 0.2;

/**
 * Chooses the sentences that best answer the question: each scores the share of the
 * question's content words it holds, each word weighted by how rare it is among the
 * retrieved sentences, plus a prior for the passage's rank. The best one always goes in, then
 * the best sentence of each of the top pages, then others that score at least 60% of the best
 * and add a passage or a word of the question. Tuned on SQuAD (docs/answers.md).
 */
export function pickSentences(
  question: string,
  passages: Passage[],
): { picks: Pick[]; coverage: number } {
  const qTerms = [...contentTerms(question).keys()];
  if (qTerms.length === 0 || passages.length === 0) return { picks: [], coverage: 0 };
  const candidates = passages.flatMap((passage, rank) =>
    splitSentences(passage.text).filter((s) => !isMarkupOnly(s.text) && s.text.length >= 20)
      .map((s) => ({
        passage,
        rank,
        sentence: s.text,
        terms: new Set(contentTerms(s.text).keys()),
      }))
  );
  if (candidates.length === 0) return { picks: [], coverage: 0 };
  const idf = new Map(qTerms.map((t) => {
    const df = candidates.filter((c) => c.terms.has(t)).length;
    return [t, Math.log(1 + candidates.length / (1 + df))];
  }));
  const total = qTerms.reduce((sum, t) => sum + idf.get(t)!, 0);
  const covered = (terms: Set<string>) =>
    qTerms.reduce((sum, t) => sum + (terms.has(t) ? idf.get(t)! : 0), 0) / total;
  const scored = candidates.map((c) => ({
    ...c,
    coverage: covered(c.terms),
    score: covered(c.terms) + RANK_PRIOR / (c.rank + 1),
  }))
    .sort((a, b) => b.score - a.score);
  const best = scored[0]!;
  const chosen = [best];
  const have = new Set(best.terms);
  const add = (c: typeof best) => {
    chosen.push(c);
    c.terms.forEach((t) => have.add(t));
  };
  // The retrieval ranking chooses pages better than word overlap does: the best-ranked pages
  // each get their best sentence in, when it matches the question well enough.
  for (const page of [...new Set(passages.map((p) => p.page))].slice(0, TOP_PAGES)) {
    if (chosen.length >= MAX_SENTENCES || chosen.some((c) => c.passage.page === page)) continue;
    const top = scored.find((c) => c.passage.page === page);
    if (top && top.coverage >= MIN_SHARE * best.coverage && top.coverage > 0) add(top);
  }
  for (const c of scored.slice(1)) {
    if (
      chosen.length >= MAX_SENTENCES || chosen.includes(c) || c.score < FOLLOW * best.score ||
      c.coverage === 0
    ) {
      continue;
    }
    const addsTerms = qTerms.some((t) => c.terms.has(t) && !have.has(t));
    const newPassage = !chosen.some((p) => p.passage === c.passage);
    if (addsTerms || newPassage) add(c);
  }
  const union = new Set(chosen.flatMap((c) => [...c.terms]));
  return {
    picks: chosen.map((c) => ({ passage: c.passage, sentence: c.sentence, coverage: c.coverage })),
    coverage: covered(union),
  };
}

import { contentTerms } from "../src/text/terms.ts";
import type { Passage } from "../src/ask/passages.ts";
import { type Question, withCompounds } from "../src/ask/question.ts";
import { holdsNumber } from "../src/ask/sentence_kinds.ts";

/**
 * Evidence measured for a documentation branch of the verdict (scripts/fit_verdict_docs.ts; an
 * experiment the service does not use, docs/answers.md, "The verdict on documentation, fitted
 * and checked set by set"): where the answer stands in search's ranking, whether its heading
 * names what the question names, whether it holds the kind of answer asked for. Read from the
 * answer as given (its citations' sections and quotes) and the passages of an eval dump.
 */
export type DocsEvidence = {
  /** The first citation stands in the section search ranked first (1) or not (0). */
  onTop: number;
  /** Rank of the first cited page among the passages' pages (0 is search's first), up to 4. */
  pageRank: number;
  /** IDF-weighted share of the question's words in the first cited section's title and headings. */
  heading: number;
  /** IDF-weighted share of the question's words in the answer with its sections' headings. */
  answerHeld: number;
  /** An amount or code is asked for and the answer holds it (1), lacks it (−1); not asked (0). */
  kind: number;
  /** The heaviest question word the answer (with its headings) lacks, over the heaviest word. */
  answerMissMax: number;
  /** Search's best score over the best score of another section, as a share of the best. */
  sectionMargin: number;
};

/** The first citation's place (page and section) and what each citation quotes. */
export type Cited = { page: string; section: string | null; quote: string };

export const DOCS_NONE: DocsEvidence = {
  onTop: 0,
  pageRank: 4,
  heading: 0,
  answerHeld: 0,
  answerMissMax: 1,
  kind: 0,
  sectionMargin: 0,
};

/** The documentation evidence of an answer citing `cited` from `passages`. */
export function docsEvidence(
  question: Question,
  passages: Passage[],
  cited: Cited[],
): DocsEvidence {
  const first = cited[0];
  const top = passages[0];
  const qTerms = [...question.terms.keys()];
  if (!first || !top || qTerms.length === 0) return DOCS_NONE;
  const n = passages.length;
  const passageTerms = passages.map((p) => withCompounds(question, `${p.title} ${p.text}`));
  const idf = new Map(
    qTerms.map((
      t,
    ) => [t, Math.log(1 + (n + 1) / (0.5 + passageTerms.filter((s) => s.has(t)).length))]),
  );
  const total = qTerms.reduce((s, t) => s + idf.get(t)!, 0);
  const shareIn = (terms: Set<string>) =>
    qTerms.reduce((s, t) => s + (terms.has(t) ? idf.get(t)! : 0), 0) / total;
  const pages = [...new Set(passages.map((p) => p.page))];
  const rank = pages.indexOf(first.page);
  const headings = (c: Cited) => {
    const p = passages.find((p) => p.page === c.page && p.section === c.section);
    return `${p?.title ?? ""} ${c.section ?? ""}`;
  };
  const answer = cited.map((c) => `${headings(c)} ${c.quote}`).join(" ");
  const held = withCompounds(question, answer);
  const heaviest = Math.max(...qTerms.map((t) => idf.get(t)!));
  const lacked = qTerms.filter((t) => !held.has(t)).map((t) => idf.get(t)!);
  const sameSection = (p: Passage) => p.page === top.page && p.section === top.section;
  const other = passages.find((p) => !sameSection(p));
  return {
    onTop: first.page === top.page && first.section === top.section ? 1 : 0,
    pageRank: rank < 0 ? 4 : Math.min(rank, 4),
    heading: shareIn(new Set(contentTerms(headings(first)).keys())),
    answerHeld: shareIn(held),
    answerMissMax: lacked.length === 0 ? 0 : Math.max(...lacked) / heaviest,
    kind: kindMatch(question, cited.map((c) => c.quote).join("\n")),
    sectionMargin: top.score > 0 ? (top.score - (other?.score ?? 0)) / top.score : 0,
  };
}

/** Whether the answer holds what the question's form asks for: an amount, a command. */
function kindMatch(question: Question, answer: string): number {
  if (question.wants.amount) return holdsNumber(answer) ? 1 : -1;
  if (question.wants.code) return /```|~~~|`[^`\n]+`/.test(answer) ? 1 : -1;
  return 0;
}

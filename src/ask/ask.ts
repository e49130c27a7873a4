import type { z } from "zod";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { type Answer, askInput, type Citation, type FrontierNote } from "./ask_schema.ts";
import { pickSentences } from "./extractive.ts";
import { titledParagraph } from "./located_sentences.ts";
import { conflictNotes } from "./conflicts.ts";
import { frontierNotes, WEAK_COVERAGE } from "./frontier.ts";
import { answerWithLlm, LlmUnavailable } from "./llm.ts";
import { heldTerms, type Passage, retrievePassages } from "./passages.ts";
import { parseQuestion, type Question } from "./question.ts";
import { isFormLexeme, subjectOf } from "./form_words.ts";
import type { AskRetrieval } from "../search/ask_retrieval.ts";
import { composeAnswer } from "../text/unit_markdown.ts";
import {
  answerability,
  coverageOf,
  documentationAnswerability,
  entryNamed,
  type Evidence,
  gatherEvidence,
  modelBar,
} from "./verdict.ts";
import { failingSourceNotes } from "../sources/freshness.ts";
import { recordAsk } from "../usage/record_ask.ts";
import { resolveVersions } from "../versions/versions.ts";
import { versionChangeNotes } from "./version_notes.ts";
import type { Version } from "../versions/versions.ts";
import { type QuestionPart, questionParts, unansweredParts, withoutParts } from "./parts.ts";
import { absentNames } from "./absent_names.ts";
import { englishWords } from "../text/english_words.ts";
import type { UsageSource } from "../usage/record_usage.ts";

type AskDeps = Pick<Deps, "db" | "embedder" | "log" | "config">;

/**
 * Answers a question from one or more wikis: retrieve passages (hybrid search), synthesize
 * (the configured LLM, or extractively from the best sentences), verify (every quote is cut
 * from its page with its offsets; nothing is cited that was not retrieved), weigh the
 * evidence into a calibrated verdict (src/ask/verdict.ts), and say where coverage is thin.
 * An LLM failure falls back to the extractive answer with a note; it is never a 500.
 *
 * Every transport (MCP, REST, the web app) asks through here, so every question is counted
 * and kept for the usage page in one place, with its verdict, the words no passage held and
 * the unwritten pages it points to: the wiki's coverage gaps. `asker` says where it came from;
 * scripts (benchmarks, evaluations) leave it out, since nobody asked their questions.
 */
export async function askWikis(
  deps: AskDeps,
  wikiIds: string[],
  input: z.input<typeof askInput>,
  asker?: UsageSource,
): Promise<Answer> {
  const { answer, gaps } = await assessQuestion(deps, wikiIds, input);
  for (const wikiId of wikiIds) {
    if (asker) await recordAsk(deps, { wikiId, answer, ...gaps }, asker);
  }
  return answer;
}

/** What `assessQuestion` gives: the answer, and the evidence and probability behind its verdict. */
type Assessment = {
  answer: Answer;
  evidence: Evidence;
  probability: number;
  passages: Passage[];
  /** The question words no passage held and the unwritten pages it points to. */
  gaps: { absent: string[]; unwritten: string[] };
  /** The parts of the question the wiki does not answer (src/ask/parts.ts). */
  unanswered: QuestionPart[];
  /**
   * What holds the verdict under `supported` whatever the probability, for the eval's dumps
   * (scripts/fit_verdict_docs.ts): an extractive answer under the coverage bar (`weakCoverage`)
   * is `supported` only from the model's own bar (`modelBar`); a name the wiki never writes or a
   * part of the question it does not answer keeps it `partial` (`held`).
   */
  limits: { weakCoverage: boolean; held: boolean };
};

/**
 * `askWikis` with the evidence and probability behind its verdict (for the eval harness). A
 * question that asks more than one thing (`questionParts`) is answered only as far as the wiki
 * speaks to each: when no passage holds a word that one part alone asks about ("…, and does it
 * support HTTP/3?"), the answer is at most `partial` and a note names that part; when the whole
 * question found no answer for that part's sake, the parts the wiki speaks to are asked again
 * without it, and their answer is given as `partial` with the same note. Before, "How long are
 * documents kept in the trash, and can the trash be encrypted at rest?" was "not covered"
 * although the trash's 30 days were on a page, and "What port does the webserver listen on,
 * and does it support HTTP/3?" read "Answered from the wiki".
 */
export async function assessQuestion(
  deps: AskDeps,
  wikiIds: string[],
  input: z.input<typeof askInput>,
): Promise<Assessment> {
  const parsed = askInput.safeParse(input);
  if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]!.message);
  const question = parseQuestion(parsed.data.question);
  // A version named is looked up now; the wikis' defaults come with the search's statistics.
  const named = parsed.data.version;
  const versions = named ? await resolveVersions(deps.db, wikiIds, named) : new Map();
  const defaults = named === undefined;
  const whole = await assessParsed(deps, wikiIds, question, versions, defaults);
  if (whole.answer.coverage !== "unsupported" || whole.unanswered.length === 0) return whole;
  // Nothing found for an unanswered part's sake: the parts the wiki speaks to, asked alone.
  const asked = parseQuestion(withoutParts(question, whole.unanswered));
  const answered = await assessParsed(deps, wikiIds, asked, versions, defaults, whole.unanswered);
  if (answered.answer.coverage === "unsupported") return whole;
  return {
    ...answered,
    answer: { ...answered.answer, question: question.text },
    gaps: {
      ...answered.gaps,
      absent: [...new Set([...whole.gaps.absent, ...answered.gaps.absent])],
    },
  };
}

/**
 * `assessQuestion` for a question read and its versions looked up; `dropped` are parts of the
 * question as asked that were left out of this one, unanswered (src/ask/parts.ts).
 */
async function assessParsed(
  deps: AskDeps,
  wikiIds: string[],
  question: Question,
  versions: Map<string, Version>,
  defaults: boolean,
  dropped: QuestionPart[] = [],
): Promise<Assessment> {
  const { passages, terms } = await retrievePassages(deps, wikiIds, question, versions, defaults);
  const held = heldTerms(question, passages);
  const unanswered = [...dropped, ...unansweredParts(questionParts(question), held)];
  const extractive = pickSentences(question, passages);
  const { evidence, coverage, docs, probability } = weigh(question, passages, terms, extractive);
  // At the model's own bar: a model's "not covered" and a weakly covered answer are weighed
  // against it (`checkNotCovered`, `limits`).
  const sure = probability >= modelBar(docs);
  // With a model, it sees every retrieval that found passages, and may say "not covered".
  const draft = deps.config.llm && passages.length > 0
    ? await llmDraft(deps, deps.config.llm, question.text, passages)
    : null;
  const { answer, citations, notes, mode, covered } = checkNotCovered(
    draft && "answer" in draft ? draft : extractiveDraft(extractive, passages, draft?.notes ?? []),
    extractive,
    passages,
    sure,
  );
  const verdict = coverageOf(citations.length, probability, covered, docs);
  // An extractive answer below the coverage bar, shown because search agrees (`agreed`), holds
  // few of the question's words: it is `supported` only at the model's own bar (`modelBar`),
  // not at the lower one for documentation.
  // A documentation answer to a question naming what the wiki never writes (`absentNames`)
  // is `partial`: SQuAD's paragraphs were not read for it. So is an answer to a question one of
  // whose parts the wiki does not answer (`unansweredParts`).
  // English's words tell a lower-case name from a paraphrase; without them (a failed load),
  // capitalised names only.
  const english = docs ? await englishWords().catch(() => undefined) : undefined;
  const limits = {
    weakCoverage: mode === "extractive" && coverage < WEAK_COVERAGE,
    held: docs && absentNames(question, passages, terms, held, english).length > 0 ||
      unanswered.length > 0,
  };
  const level = verdict === "supported" &&
      (limits.weakCoverage && !sure || limits.held)
    ? "partial"
    : verdict;
  const frontier = await frontierNotes(
    deps.db,
    question,
    passages,
    citations,
    level,
    held,
    unanswered,
  );
  // Freshness was read with the passages: each citation names one of their pages.
  for (const c of citations) {
    const passage = passages.find((p) => p.wiki === c.wiki && p.page === c.page);
    if (passage) Object.assign(c, passage.freshness);
  }
  frontier.notes.push(...await failingSourceNotes(deps.db, wikiIds));
  frontier.notes.push(...await versionChangeNotes(deps.db, versions, citations));
  return {
    answer: {
      question: question.text,
      answer,
      citations,
      frontier: dedupe([
        ...notes.before,
        ...frontier.notes,
        ...conflictNotes(citations),
        ...notes.after,
      ]),
      coverage: frontier.coverage,
      mode,
    },
    evidence,
    probability,
    passages,
    gaps: { absent: frontier.absent, unwritten: frontier.unwritten },
    unanswered,
    limits,
  };
}

/**
 * A model's "not covered" is a claim, and is checked against the passages the way its quotes
 * are: when the evidence rates the passages as answering (`sure`: the probability at the
 * model's own bar, `modelBar`, or more), the claim does not stand alone. A model that cited
 * nothing gets the extractive answer in its place (the sentences that match, for the caller to
 * check); one that cited passages keeps its answer. Either way coverage is `partial`
 * (`verdictOf`) and a note says the model and the evidence disagree. On weak evidence the
 * model's "not covered" stands.
 */
function checkNotCovered(
  draft: Draft,
  extractive: ReturnType<typeof pickSentences>,
  passages: Passage[],
  sure: boolean,
): Draft {
  if (draft.covered !== false || !sure) return draft;
  const pages = [...new Set(passages.slice(0, 3).map((p) => p.page))];
  if (draft.citations.length === 0) {
    const fallback = extractiveDraft(extractive, passages, draft.notes.before);
    if (fallback.citations.length > 0) {
      fallback.notes.after.push({
        kind: "llm_fallback",
        note: "The language model said the passages do not answer this, but they match the " +
          "question well: this answer is extractive, check it against the cited pages",
        pages,
      });
      return { ...fallback, covered: false };
    }
    return draft;
  }
  draft.notes.after.push({
    kind: "weak_match",
    note: "The language model found no answer, but the passages match the question well: " +
      "check the cited pages",
    pages,
  });
  return draft;
}

type Draft = {
  answer: string;
  citations: Citation[];
  notes: { before: FrontierNote[]; after: FrontierNote[] };
  mode: Answer["mode"];
  /** The model's own claim that the passages do (not) answer the question. */
  covered?: boolean;
};

/** The model's verified answer, or the note that explains why there is none. */
async function llmDraft(
  deps: AskDeps,
  llm: NonNullable<AskDeps["config"]["llm"]>,
  question: string,
  passages: Passage[],
): Promise<Draft | { notes: FrontierNote[] }> {
  try {
    const out = await answerWithLlm(llm, question, passages);
    return {
      answer: renumber(out.answer, out.cited.map((c) => c.passage.n)),
      citations: out.cited.map((c, i) => citationOf(c.passage, c, i + 1)),
      notes: { before: out.modelNotes, after: out.dropped },
      mode: "llm",
      covered: out.covered,
    };
  } catch (error) {
    if (!(error instanceof LlmUnavailable)) throw error;
    deps.log.warn("ask fell back to an extractive answer", { reason: error.message });
    return {
      notes: [{
        kind: "llm_fallback",
        note: `The language model could not answer (${error.message}): this answer is extractive`,
      }],
    };
  }
}

/**
 * The coverage bar of an answer whose best sentence stands where search ranked first
 * (`agreed`): lower than `WEAK_COVERAGE`, as two rankings point at the same place.
 */
const AGREED_COVERAGE = 0.2;

/**
 * The best sentences with their markers, or a plain statement that the wiki lacks the answer.
 * An answer under its coverage bar is not shown, but for one where search and the picker agree
 * on the amount asked (`agreedOnAmount`): the best sentence stands in the section search ranked
 * first and holds a number where the question asks "how long" or "how many". A user's story
 * fills such a question with words a reference section never repeats ("Deleted a few scans by
 * mistake last week. How long do they sit in the trash before paperless gets rid of them for
 * good?" and "Defaults to 30 days", 0.197 of the question's weighted words), and the two
 * rankings agreeing on a place that states the kind of value asked is the evidence words cannot
 * give. Such an answer is `supported` only at the model's own bar (`assessQuestion`).
 */
function extractiveDraft(
  extractive: ReturnType<typeof pickSentences>,
  passages: Passage[],
  before: FrontierNote[],
): Draft {
  const weak = extractive.agreedOnAmount ? 0 : extractive.agreed ? AGREED_COVERAGE : WEAK_COVERAGE;
  const picks = extractive.coverage < weak ? [] : extractive.picks;
  const answer = picks.length > 0
    ? composeAnswer(picks.map((p) => ({ ...p, from: p.passage.pageId })))
    : passages.length > 0
    ? `The wiki does not answer this. The closest sections are ${closest(passages)}.`
    : "The wiki has nothing on this.";
  return {
    answer,
    citations: picks.map((p, i) => citationOf(p.passage, p, i + 1)),
    notes: { before, after: [] },
    mode: "extractive",
  };
}

function citationOf(
  p: Passage,
  q: { quote: string; start: number; end: number },
  n: number,
): Citation {
  return {
    n,
    wiki: p.wiki,
    page: p.page,
    title: p.title,
    url: p.url,
    revision: p.revision,
    section: p.section,
    quote: q.quote,
    start: q.start,
    end: q.end,
    ...(p.version ? { version: p.version } : {}),
  };
}

/** Rewrites the model's `[passage]` markers to citation numbers, in citation order. */
function renumber(answer: string, citedPassages: number[]): string {
  return answer.replace(/\[(\d+)\]/g, (m, n) => {
    const i = citedPassages.indexOf(Number(n));
    return i < 0 ? m : `[${i + 1}]`;
  });
}

/**
 * Where the best three passages stand, as links: a section by its page's title and its own
 * heading ("Optional Configuration Settings › DISABLE_PREFIX_LIST_HIERARCHY"), a page's lead by
 * its title. On a reference page of a hundred settings the title alone pointed nowhere: "The
 * prefix list page takes forever to load since we imported 200k prefixes. Anything to speed it
 * up?" named "Optional Configuration Settings" where search had ranked the setting's section first.
 */
function closest(passages: Passage[]): string {
  const places = new Map<string, string>();
  for (const p of passages.slice(0, 3)) {
    const heading = p.section?.split(" > ").at(-1)?.trim();
    const name = heading && heading !== p.title ? `${p.title} › ${heading}` : p.title;
    // A link's text escapes its brackets; its address, the parentheses a page's path may hold.
    const url = p.url.replace(/\(/g, "%28").replace(/\)/g, "%29");
    places.set(p.url, `[${name.replace(/[\\[\]]/g, "\\$&")}](${url})`);
  }
  return [...places.values()].join(", ");
}

function dedupe(notes: FrontierNote[]): FrontierNote[] {
  const seen = new Set<string>();
  return notes.filter((n) => !seen.has(n.kind + n.note) && seen.add(n.kind + n.note));
}

/**
 * The verdict's evidence and the share of the question the answer's passages reach. An answer
 * from documentation (`docs`: passages not all from pages shaped as SQuAD's, `titledParagraph`;
 * a page of one `#` heading among sections of other pages is documentation too, as NATS's page
 * on naming streams) has its own bar, chosen for the same precision, and is weighed against the
 * question's subject: the same features and coverage, read without the words of the question's
 * form (`subjectOf`; docs/answers.md, "The verdict's words on documentation"), on the section
 * the answer shows first when a sentence there holds a word of that subject (without its form
 * words, the subject's best sentence can stand on another page, which the answer does not
 * show). Passages all from pages of one `#` heading (SQuAD's) are weighed as before. The
 * probability of a documentation answer is the documentation branch's
 * (`documentationAnswerability`): the model's, recalibrated on documentation answers, with how
 * much the question names the reference entry the answer shows first (`entryNamed`).
 */
function weigh(
  question: Question,
  passages: Passage[],
  terms: AskRetrieval["terms"],
  extractive: ReturnType<typeof pickSentences>,
): { evidence: Evidence; coverage: number; docs: boolean; probability: number } {
  const first = extractive.bestPassage;
  const docs = first !== undefined && passages.some((p) => !titledParagraph(p));
  const subject = docs ? subjectOf(question) : question;
  const picked = subject === question ? extractive : pickSentences(subject, passages, first);
  const evidence = gatherEvidence(
    subject,
    passages,
    docs ? terms.filter((t) => !isFormLexeme(question, t.term)) : terms,
    picked.evidence,
    picked.bestPassage ?? first,
  );
  const probability = answerability(evidence);
  if (!docs) return { evidence, coverage: picked.coverage, docs, probability };
  const named = entryNamed(subject, extractive.picks[0]?.passage.section ?? null);
  return {
    evidence,
    coverage: picked.coverage,
    docs,
    probability: documentationAnswerability(probability, named),
  };
}

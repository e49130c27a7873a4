import type { z } from "zod";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { type Answer, askInput, type Citation, type FrontierNote } from "./ask_schema.ts";
import { pickSentences } from "./extractive.ts";
import { frontierNotes, WEAK_COVERAGE } from "./frontier.ts";
import { answerWithLlm, LlmUnavailable } from "./llm.ts";
import { type Passage, retrievePassages } from "./passages.ts";
import { addSourceFreshness, failingSourceNotes } from "../sync/freshness.ts";

type AskDeps = Pick<Deps, "db" | "embedder" | "log" | "config">;

/**
 * Answers a question from one or more wikis: retrieve passages (hybrid search), synthesize
 * (the configured LLM, or extractively from the best sentences), verify (every quote is found
 * in its page; nothing is cited that was not retrieved), and say where coverage is thin.
 * An LLM failure falls back to the extractive answer with a note; it is never a 500.
 */
export async function askWikis(
  deps: AskDeps,
  wikiIds: string[],
  input: z.input<typeof askInput>,
): Promise<Answer> {
  const parsed = askInput.safeParse(input);
  if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]!.message);
  const question = parsed.data.question;
  const passages = await retrievePassages(deps, wikiIds, question);
  const extractive = pickSentences(question, passages);
  const draft = (deps.config.llm && passages.length > 0 && extractive.coverage >= WEAK_COVERAGE)
    ? await llmDraft(deps, deps.config.llm, question, passages)
    : null;
  const { answer, citations, notes, mode } = draft && "answer" in draft
    ? draft
    : extractiveDraft(extractive, passages, draft?.notes ?? []);
  const frontier = await frontierNotes(deps.db, question, passages, citations, extractive.coverage);
  await addSourceFreshness(deps.db, citations);
  frontier.notes.push(...await failingSourceNotes(deps.db, wikiIds));
  return {
    question,
    answer,
    citations,
    frontier: dedupe([...notes.before, ...frontier.notes, ...notes.after]),
    coverage: frontier.coverage,
    mode,
  };
}

type Draft = {
  answer: string;
  citations: Citation[];
  notes: { before: FrontierNote[]; after: FrontierNote[] };
  mode: Answer["mode"];
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
      citations: out.cited.map((c, i) => citationOf(c.passage, c.quote, i + 1)),
      notes: { before: out.modelNotes, after: out.dropped },
      mode: "llm",
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

/** The best sentences with their markers, or a plain statement that the wiki lacks the answer. */
function extractiveDraft(
  extractive: ReturnType<typeof pickSentences>,
  passages: Passage[],
  before: FrontierNote[],
): Draft {
  const picks = extractive.coverage < WEAK_COVERAGE ? [] : extractive.picks;
  const answer = picks.length > 0
    ? picks.map((p, i) => `${p.sentence} [${i + 1}]`).join(" ")
    : passages.length > 0
    ? `The wiki does not answer this. The closest pages are ${closest(passages)}.`
    : "The wiki has nothing on this.";
  return {
    answer,
    citations: picks.map((p, i) => citationOf(p.passage, p.sentence, i + 1)),
    notes: { before, after: [] },
    mode: "extractive",
  };
}

function citationOf(p: Passage, quote: string, n: number): Citation {
  return {
    n,
    wiki: p.wiki,
    page: p.page,
    title: p.title,
    url: p.url,
    revision: p.revision,
    section: p.section,
    quote,
  };
}

/** Rewrites the model's `[passage]` markers to citation numbers, in citation order. */
function renumber(answer: string, citedPassages: number[]): string {
  return answer.replace(/\[(\d+)\]/g, (m, n) => {
    const i = citedPassages.indexOf(Number(n));
    return i < 0 ? m : `[${i + 1}]`;
  });
}

function closest(passages: Passage[]): string {
  return [...new Set(passages.slice(0, 3).map((p) => `"${p.title}"`))].join(", ");
}

function dedupe(notes: FrontierNote[]): FrontierNote[] {
  const seen = new Set<string>();
  return notes.filter((n) => !seen.has(n.kind + n.note) && seen.add(n.kind + n.note));
}

import type { z } from "zod";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { type Answer, askInput, type Citation, type FrontierNote } from "./ask_schema.ts";
import { pickSentences } from "./extractive.ts";
import { frontierNotes, WEAK_COVERAGE } from "./frontier.ts";
import { answerWithLlm, LlmUnavailable } from "./llm.ts";
import { type Passage, retrievePassages } from "./passages.ts";

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
  const fallback: FrontierNote[] = [];
  if (deps.config.llm && passages.length > 0 && extractive.coverage >= WEAK_COVERAGE) {
    try {
      const llm = await answerWithLlm(deps.config.llm, question, passages);
      const citations = llm.cited.map((c, i) => citationOf(c.passage, c.quote, i + 1));
      const renumbered = renumber(llm.answer, llm.cited.map((c) => c.passage.n));
      const { notes, coverage } = await frontierNotes(
        deps.db,
        question,
        passages,
        citations,
        extractive.coverage,
      );
      return {
        question,
        answer: renumbered,
        citations,
        frontier: dedupe([...llm.modelNotes, ...notes, ...llm.dropped]),
        coverage,
        mode: "llm",
      };
    } catch (error) {
      if (!(error instanceof LlmUnavailable)) throw error;
      deps.log.warn("ask fell back to an extractive answer", { reason: error.message });
      fallback.push({
        kind: "llm_fallback",
        note: `The language model could not answer (${error.message}): this answer is extractive`,
      });
    }
  }
  const weak = extractive.coverage < WEAK_COVERAGE;
  const picks = weak ? [] : extractive.picks;
  const citations = picks.map((p, i) => citationOf(p.passage, p.sentence, i + 1));
  const answer = picks.length > 0
    ? picks.map((p, i) => `${p.sentence} [${i + 1}]`).join(" ")
    : passages.length > 0
    ? `The wiki does not answer this. The closest pages are ${closest(passages)}.`
    : "The wiki has nothing on this.";
  const { notes, coverage } = await frontierNotes(
    deps.db,
    question,
    passages,
    citations,
    extractive.coverage,
  );
  return {
    question,
    answer,
    citations,
    frontier: dedupe([...fallback, ...notes]),
    coverage,
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

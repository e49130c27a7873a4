import type { Db } from "../db/db.ts";
import { contentTerms } from "../text/terms.ts";
import type { Answer, Citation, FrontierNote } from "./ask_schema.ts";
import type { Passage } from "./passages.ts";
import type { Question } from "./question.ts";
import { selectMissingLinksFrom } from "../pages/mod.ts";
import { formStems } from "./form_words.ts";
import { partNote, type QuestionPart } from "./parts.ts";

/** A source older than this is noted as possibly stale. */
const STALE_AFTER_DAYS = 365;

/** Below this share of the question's weighted words, the wiki is taken not to cover it. */
export const WEAK_COVERAGE = 0.35;

/** The note naming the question's words no retrieved passage holds. */
function absentNote(words: string[]): FrontierNote {
  return {
    kind: "uncovered",
    note: `No retrieved passage mentions ${words.map((w) => `"${w}"`).join(", ")}`,
  };
}

/**
 * Where the wiki's coverage is thin: question words no passage holds, an answer resting on one
 * page, sources not updated for a year, and pages the cited pages link to that nobody wrote.
 * `absent` and `unwritten` name those words and pages for the usage page's coverage gaps.
 */
export async function frontierNotes(
  db: Db,
  question: Question,
  passages: Passage[],
  citations: Citation[],
  level: Answer["coverage"],
  /** The content words the passages hold (`heldTerms`). */
  held: Set<string>,
  /** The parts of the question the wiki does not answer (src/ask/parts.ts). */
  unanswered: QuestionPart[],
): Promise<
  { notes: FrontierNote[]; coverage: Answer["coverage"]; absent: string[]; unwritten: string[] }
> {
  const notes: FrontierNote[] = unanswered.map(partNote);
  const qTerms = question.terms;
  // The words a question is asked with ("How do I make …", "how long") are not what it is
  // about: a page need not say them, and a note that none does only hides the words that matter.
  const form = formStems(question);
  const unheld = [...qTerms].filter(([t]) => !held.has(t) && !form.has(t));
  const absent = unheld.map(([, word]) => word);
  // Words that are the unanswered parts' own are said by the parts' notes.
  const own = new Set(unanswered.flatMap((p) => [...p.own.keys()]));
  if (unheld.some(([t]) => !own.has(t))) notes.push(absentNote(absent));
  if (level !== "supported") {
    notes.push({
      kind: "weak_match",
      note: level === "unsupported"
        ? "The wiki does not cover this question: only weak matches were found"
        : "The wiki may not cover this question: the best passages match it only in part",
      pages: [...new Set(passages.slice(0, 3).map((p) => p.page))],
    });
  }
  // Notes name pages as readers see them, by title; `pages` keeps their paths for programs.
  const cited = [...new Set(citations.map((c) => c.page))];
  if (level !== "unsupported" && cited.length === 1) {
    const title = citations.find((c) => c.page === cited[0])!.title;
    notes.push({
      kind: "single_source",
      note: `The answer rests on one page: "${title}"`,
      pages: cited,
    });
  }
  const old = passages.filter((p) =>
    cited.includes(p.page) && Date.now() - p.updatedAt.getTime() > STALE_AFTER_DAYS * 86_400_000
  );
  for (const p of old) {
    notes.push({
      kind: "stale_source",
      note: `"${p.title}" was last changed on ${p.updatedAt.toISOString().slice(0, 10)}`,
      pages: [p.page],
    });
  }
  const sources = [...new Set(passages.slice(0, 4).map((p) => p.pageId))];
  const missing = await selectMissingLinksFrom(db, sources);
  const unwritten: string[] = [];
  for (const m of missing) {
    const words = contentTerms(m.target);
    if (![...words.keys()].some((t) => qTerms.has(t))) continue;
    unwritten.push(m.target);
    notes.push({
      kind: "missing_page",
      note: `"${m.target}" is linked from "${m.from_path}" but not written yet`,
      pages: [m.from_path],
    });
  }
  return { notes, coverage: level, absent, unwritten };
}

import { stem } from "../text/terms.ts";
import type { Question } from "./question.ts";

/**
 * Words of a documentation question's form rather than its subject: the light verbs an operator
 * asks with ("How do I get…", "make", "keep", "put"), the verbs of asking how to do something
 * to a product ("configure", "change", "turn on", "add", "pick"), and fillers ("instead",
 * "already"). An answer from the docs names the setting and says what it does; it rarely
 * repeats these ("How do I make the server keep its log…" is answered by "`logfile_size_limit`
 * — …"), so the verdict does not count them among the words an answer must hold.
 */
const FORM = new Set(
  [
    "get",
    "got",
    "make",
    "give",
    "put",
    "take",
    "keep",
    "let",
    "go",
    "want",
    "need",
    "happen",
    "pick",
    "choose",
    "instead",
    "already",
    "possible",
    "able",
    "actually",
    "exactly",
  ].map(stem),
);

/** The word right after "how" says what kind of answer is asked: "how long", "how often". */
const AFTER_HOW = new Set(["many", "much", "long", "often", "far", "big", "large", "soon"]);

/** The stems of the words right after "how" that say what kind of answer is asked (`AFTER_HOW`). */
export function kindStems(question: Question): Set<string> {
  const out = new Set<string>();
  question.words.forEach((w, i) => {
    if (i > 0 && question.words[i - 1] === "how" && AFTER_HOW.has(w)) out.add(stem(w));
  });
  return out;
}

/** The stems of the question's form words (`FORM`, and the word after "how" in `AFTER_HOW`). */
export function formStems(question: Question): Set<string> {
  const out = kindStems(question);
  for (const w of question.words) if (FORM.has(stem(w))) out.add(stem(w));
  return out;
}

/**
 * The question as the verdict weighs an answer from documentation: its form words left out of
 * its content words (`terms`, `asked`), unless nothing else would be left.
 */
export function subjectOf(question: Question): Question {
  const form = formStems(question);
  if (form.size === 0) return question;
  const terms = new Map([...question.terms].filter(([t]) => !form.has(t)));
  const asked = question.asked.filter((t) => !form.has(t));
  if (terms.size === 0 || asked.length === 0) return question;
  return { ...question, terms, asked };
}

/**
 * Whether a search lexeme (PostgreSQL's stem, a prefix of the word or ending in "i" for "y")
 * stands for one of the question's form words and for none of its other words, or is half of
 * one of its contractions: search splits "We'd" and "doesn't" at the apostrophe into `d` and
 * `doesn`, which the question's words leave out (`withoutContractions`).
 */
export function isFormLexeme(question: Question, lexeme: string): boolean {
  if (question.halves.includes(lexeme)) return true;
  const form = formStems(question);
  if (form.size === 0) return false;
  const of = (w: string) =>
    w === lexeme || w.startsWith(lexeme) || w.startsWith(lexeme.replace(/i$/, "y"));
  const words = question.words;
  return words.some((w) => form.has(stem(w)) && of(w)) &&
    !words.some((w) => !form.has(stem(w)) && of(w));
}

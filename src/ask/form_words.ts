import { stem, STOPWORDS } from "../text/terms.ts";
import type { Question } from "./question.ts";

/**
 * Words of a documentation question's form rather than its subject: the light verbs an operator
 * asks with ("How do I get…", "make", "keep", "put"), the verbs of asking how to do something
 * to a product ("configure", "change", "turn on", "add", "pick"), and fillers ("instead",
 * "already", "a particular user", "certain dates"). An answer from the docs names the setting
 * and says what it does; it rarely repeats these ("How do I make the server keep its log…" is
 * answered by "`logfile_size_limit` — …"), so the verdict does not count them among the words
 * an answer must hold.
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
    "certain",
    "particular",
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

/**
 * The conditions a question asks for a default with (`asksForDefault` reads the same, for
 * search): "out of the box", "unless told otherwise", "if we don't set one", "if I leave it
 * out", "if we leave the schedule alone", "when we leave the OCR mode at its default". A
 * reference section answers "Defaults to 20" and never says "alone" or "box"; the thing the
 * condition names (`thing`: the schedule, the timeout in "if no timeout is set") stays a word of
 * the subject. Read over the question's words, its contractions written out ("don't" is "do
 * not").
 */
const DEFAULT_CONDITION = new RegExp(
  [
    String.raw`\bout of the box\b`,
    String.raw`\bunless (?:(?:told|configured|set|specified|changed) )?otherwise\b`,
    String.raw`\bunless (?:we|you|i) (?:change|set|configure|say|give|specify)\b`,
    String.raw`\b(?:if|when|unless) (?:we|you|i) (?:do not|never|did not) ` +
    String.raw`(?:set|configure|change|say|give|specify|pass)\b`,
    String.raw`\bif (?:none|nothing|no (?<thing>\w+)) (?:is|was|are) ` +
    String.raw`(?:set|configured|given|specified)\b`,
    String.raw`\bconfigure nothing\b`,
    String.raw`\b(?:if|when) (?:we|you|i) leave (?:it |them )?out\b`,
    String.raw`\bleave (?:it|them|that|this|the (?<named>(?:\w+ ){0,2}\w+)) ` +
    String.raw`(?:alone\b|(?=at (?:its|the) defaults?\b))`,
  ].join("|"),
  "g",
);

/** The stems of the words of the question's default conditions (`DEFAULT_CONDITION`). */
function conditionStems(question: Question): Set<string> {
  const out = new Set<string>();
  for (const m of question.words.join(" ").matchAll(DEFAULT_CONDITION)) {
    const kept = new Set((m.groups?.thing ?? m.groups?.named ?? "").split(" "));
    for (const w of m[0].split(" ")) if (w && !kept.has(w) && !STOPWORDS.has(w)) out.add(stem(w));
  }
  return out;
}

/**
 * The stems of the question's form words (`FORM`, the word after "how" in `AFTER_HOW`, and the
 * words of a condition asking for a default, `DEFAULT_CONDITION`).
 */
export function formStems(question: Question): Set<string> {
  const out = kindStems(question);
  for (const w of question.words) if (FORM.has(stem(w))) out.add(stem(w));
  for (const s of conditionStems(question)) out.add(s);
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

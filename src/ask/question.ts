import { relatedStems } from "../text/related_forms.ts";
import { contentTerms, stem, STOPWORDS, tokenize } from "../text/terms.ts";
import { asksForCode, asksForNumber } from "./sentence_kinds.ts";
import { definitionTopic } from "./topic.ts";

/**
 * A question, read once (`parseQuestion`) and handed as one value to retrieval, the sentence
 * picker, the verdict's evidence and the frontier notes: nothing else in `src/ask/` tokenizes
 * the question's text. Search analyses `text` on its own terms (its lexical index and the
 * embedder).
 */
export type Question = {
  /** The question as asked. */
  text: string;
  /** Its words, lower case, in order (`tokenize`), its contractions read whole. */
  words: string[];
  /**
   * The halves of its contractions that are not words ("d" of "We'd", "doesn" of "doesn't"):
   * search splits the question's text at the apostrophe and reads them as terms.
   */
  halves: string[];
  /** The same words stemmed. */
  stems: string[];
  /** Its content words: stem → the word as asked (`contentTerms`), in order. */
  terms: Map<string, string>;
  /** Adjacent word pairs, which a text may hold as one compound ("roll back" / "rollback"). */
  pairs: [string, string][];
  /**
   * Its words' related forms (`relatedStems`), stemmed, each with the stem of the word it stands
   * for: a text saying "width" holds the "wide" of "How wide …?".
   */
  related: Map<string, string>;
  /**
   * The thing it names when it asks what something is ("How do tokens work?" → `token`):
   * its stemmed content words (`definitionTopic`), else null.
   */
  topic: string[] | null;
  /**
   * The words an answer must hold: the topic's when it has one, else its content words but
   * those that point at something else it names (`RELATIVE`).
   */
  asked: string[];
  /** Its capitalised words past the first, lower case, stop words aside. */
  names: string[];
  /** Its words holding a digit. */
  numbers: string[];
  /** What kind of answer it asks for, by its form. */
  wants: Wants;
};

/**
 * The kinds of answer a question asks for. The picker, the verdict's features and its fitted
 * weights were each written with their own reading of the wh-words, kept as they are.
 */
export type Wants = {
  /** A command, a configuration, an example, or it names code itself (`asksForCode`). */
  code: boolean;
  /** An amount: how many, how much, how long, what percentage… (`asksForNumber`). */
  amount: boolean;
  /** How to do something: "How do I…", "How can we…", "how to…" (`HOW_TO`). */
  howTo: boolean;
  /** A number or a date, as the picker's `typeMatch` reads it. */
  numberOrDate: boolean;
  /** The answer token the window signals look for (src/ask/signals.ts). */
  token: "number" | "date" | "person" | "place" | null;
  /** The answer token the alignment looks for near matched words (src/ask/alignment.ts). */
  near: "number" | "date" | "name" | null;
};

/**
 * Words that point at something else the question names ("a section of another page"): they
 * carry no topic, so a sentence holding them ("send the link another way") matches nothing.
 * "other" is a stop word already; these are its kin.
 */
const RELATIVE = new Set(["another", "else"]);

/**
 * The question's text without the second halves of its contractions ("We'd like" → "We like",
 * "I'm" → "I") and with its negatives written out ("doesn't" → "does not", "won't" → "will
 * not"): split at the apostrophe, they are words of their own ("d", "m", "won", "doesn") that
 * no answer holds, and read as the question's rarest words.
 */
export function withoutContractions(text: string): string {
  return text.replace(/\b(wo|ca|sha)n['’]t\b/gi, (_, a: string) => NEGATED[a.toLowerCase()]!)
    .replace(/(\p{L})n['’]t\b/gu, "$1 not")
    .replace(/(\p{L})['’](?:d|m|ll|re|ve|s)\b/giu, "$1");
}

/** The negatives whose first half is not a word: "won't", "can't", "shan't". */
const NEGATED: Record<string, string> = { wo: "will not", ca: "can not", sha: "shall not" };

/** Parses a question once; see `Question`. */
export function parseQuestion(text: string): Question {
  parses.count++;
  const read = withoutContractions(text);
  const words = tokenize(read);
  const terms = contentTerms(read);
  const topic = definitionTopic(read);
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < words.length; i++) pairs.push([words[i]!, words[i + 1]!]);
  return {
    text,
    words,
    halves: tokenize(text).filter((w) => !words.includes(w)),
    stems: words.map(stem),
    terms,
    pairs,
    related: relatedStems(terms, words),
    topic,
    asked: topic ?? [...terms.keys()].filter((t) => !RELATIVE.has(t)),
    names: namesOf(read),
    numbers: words.filter((w) => /\d/.test(w)),
    wants: wantsOf(text),
  };
}

/**
 * The question's content words in order, each followed by its related forms (`related`): "What
 * has to be switched on?" names `METRICS_ENABLED` as "metrics … enabled" would.
 */
export function termsInOrder(question: Question): string[] {
  const forms = [...question.related];
  return [...question.terms.keys()].flatMap((t) => [
    t,
    ...forms.filter(([, term]) => term === t).map(([form]) => form),
  ]);
}

/**
 * `terms` with the question's words whose related form they hold ("width" holds "wide"), the
 * same set.
 */
export function withRelated(question: Question, terms: Set<string>): Set<string> {
  for (const [form, term] of question.related) if (terms.has(form)) terms.add(term);
  return terms;
}

/** A question's sentences, as asked ("Our NAS is slow. How long does OCR get?"). */
export function sentencesOf(text: string): string[] {
  return text.split(/(?<=[?.!])\s+/);
}

/** Whether a sentence of a question asks (ends with a question mark) rather than tells the story. */
export function asks(sentence: string): boolean {
  return /\?\s*$/.test(sentence);
}

/** How many questions were parsed in this process: a test counts one per ask. */
export const parses = { count: 0 };

/** A question asking how to do something, in any of its sentences. */
const HOW_TO = /\bhow\s+(?:do|can|could|should|would|must)\s+(?:i|we|you|one)\b|\bhow\s+to\b/i;

function wantsOf(text: string): Wants {
  const q = text.toLowerCase();
  return {
    code: asksForCode(text),
    amount: asksForNumber(text),
    howTo: HOW_TO.test(text),
    numberOrDate:
      /\b(how (many|much|long|old|far|tall|large|big)|what year|when|what percentage)\b/i.test(
        text,
      ),
    token: tokenKind(q),
    near: nearKind(q),
  };
}

function tokenKind(q: string): Wants["token"] {
  if (/\b(what|which) (year|decade|century|month|day|date)\b|\bwhen\b/.test(q)) return "date";
  if (/\bhow (many|much|long|old|far|tall|large|big|high)\b|\bwhat (percentage|number)\b/.test(q)) {
    return "number";
  }
  if (/\bwho(m|se)?\b/.test(q)) return "person";
  if (/\bwhere\b/.test(q)) return "place";
  return null;
}

function nearKind(q: string): Wants["near"] {
  if (/\b(what|which) (year|decade|century|month|day|date)\b|\bwhen\b/.test(q)) return "date";
  if (
    /\bhow (many|much|long|old|far|tall|large|big|high|often)\b|\bwhat (percentage|number|amount)\b/
      .test(q)
  ) return "number";
  if (/\bwho(m|se)?\b|\bwhere\b|\bwhat (city|country|company|team|state|person)\b/.test(q)) {
    return "name";
  }
  return null;
}

/** The question's capitalised words past its first word, lower-cased, stop words aside. */
function namesOf(text: string): string[] {
  const words = [...text.matchAll(/\p{L}[\p{L}\p{N}'’-]*/gu)].map((m) => m[0]);
  return [
    ...new Set(
      words.slice(1).filter((w) => /^\p{Lu}/u.test(w)).flatMap((w) => tokenize(w))
        .filter((w) => !STOPWORDS.has(w)),
    ),
  ];
}

/**
 * The stemmed content words of a text, plus the question's words that it holds as one
 * compound: "roll back" is in a text that says "rollback", "set up" in one that says "setup".
 */
export function withCompounds(question: Question, text: string): Set<string> {
  const terms = new Set(contentTerms(text).keys());
  const words = new Set(tokenize(text));
  for (const [a, b] of question.pairs) {
    if (!words.has(a + b) && !words.has(stem(a + b))) continue;
    for (const w of [a, b]) if (!STOPWORDS.has(w)) terms.add(stem(w));
  }
  // Two of the question's words a name joins, in either order: "drop a label" in `labeldrop`,
  // "keep … label" in `labelkeep`.
  const content = question.words.filter((w) => !STOPWORDS.has(w) && w.length >= 3);
  for (const a of content) {
    for (const b of content) {
      if (a !== b && words.has(a + b)) terms.add(stem(a)).add(stem(b));
    }
  }
  return terms;
}

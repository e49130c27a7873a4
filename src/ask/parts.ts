import { contentTerms } from "../text/terms.ts";
import type { FrontierNote } from "./ask_schema.ts";
import { asks, type Question, sentencesOf } from "./question.ts";
import { formStems } from "./form_words.ts";

/**
 * Where a question starts asking a second thing: "and" (after a comma or not) followed by a word
 * that opens a question ("…listen on, and does it support HTTP/3?", "…the trash, and can it be
 * encrypted?"). "and" between two things asked about ("ports and protocols") is not one.
 */
const SECOND_ASK = new RegExp(
  String.raw`,?\s+and\s+(?=(?:what|how|which|where|when|why|who|whose|can|could|does|do|did|` +
    String.raw`is|are|was|were|should|will|would|may|must|has|have)\b)`,
  "i",
);

/**
 * A part that asks for a judgement of what the question or its other part is about ("Is that on
 * purpose?", "Is this expected?", "Is it safe?"): the answer to the other part answers it too, and
 * its words ("purpose") are not a thing the wiki must name.
 */
const JUDGEMENT = /^(?:is|was|are|were|isn['’]t) (?:that|this|it|these|those)\b/i;

/** One of the things a question asks, and the content words only it holds (stem → word). */
export type QuestionPart = { text: string; own: Map<string, string> };

/**
 * The things a question asks when it asks more than one, else none: its sentences that end
 * with a question mark, each cut where "and" opens a second ask (`SECOND_ASK`). The sentences
 * that tell the story ("Our NAS is slow.") belong to every part and to none alone. A part's `own`
 * words are its content words that no other part holds, its form words aside ("how long", "by
 * default"): "what is it if we never set it?" after "Which setting picks the OCR language" owns
 * none, and is answered where the first part is; nor does a part that asks for a judgement
 * (`JUDGEMENT`).
 */
export function questionParts(question: Question): QuestionPart[] {
  const asked = sentencesOf(question.text).filter(asks)
    .flatMap((s) => s.split(SECOND_ASK))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (asked.length < 2) return [];
  const form = formStems(question);
  const terms = asked.map((a) => [...contentTerms(a)].filter(([t]) => !form.has(t)));
  return asked.map((text, i) => ({
    text,
    own: new Map(
      JUDGEMENT.test(text)
        ? []
        : terms[i]!.filter(([t]) =>
          !terms.some((other, j) => j !== i && other.some(([o]) => o === t))
        ),
    ),
  }));
}

/**
 * The parts no retrieved passage speaks to: a part one of whose own words is in none of the
 * passages (`held`: `heldTerms`). Such a part is not answered whatever the others are: "does it
 * support HTTP/3?" in a wiki that never says "HTTP". None when no part is answered: then the
 * question as a whole is not.
 */
export function unansweredParts(parts: QuestionPart[], held: Set<string>): QuestionPart[] {
  const out = parts.filter((p) => [...p.own.keys()].some((t) => !held.has(t)));
  return out.length < parts.length ? out : [];
}

/**
 * The question without its unanswered parts: its story sentences and the parts the wiki speaks
 * to, in the order asked.
 */
export function withoutParts(question: Question, dropped: QuestionPart[]): string {
  const drop = new Set(dropped.map((p) => p.text));
  return sentencesOf(question.text).map((s) => {
    if (!asks(s)) return s;
    const kept = s.split(SECOND_ASK).map((a) => a.trim()).filter((a) => a && !drop.has(a));
    if (kept.length === 0) return "";
    const joined = kept.join(", and ");
    return /\?$/.test(joined) ? joined : `${joined}?`;
  }).filter(Boolean).join(" ");
}

const PART_NOTE = "The wiki does not answer this part of the question: ";

/** The note naming a part of the question the wiki does not answer. */
export function partNote(part: QuestionPart): FrontierNote {
  return { kind: "uncovered", note: `${PART_NOTE}"${part.text}"` };
}

/** The part a `partNote` names, or null for any other note. */
export function partOfNote(note: FrontierNote): string | null {
  if (note.kind !== "uncovered" || !note.note.startsWith(PART_NOTE)) return null;
  return note.note.slice(PART_NOTE.length).replace(/^"|"$/g, "");
}

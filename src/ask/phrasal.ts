import { PARTICLES, stem, STOPWORDS, tokenize } from "../text/terms.ts";
import type { Passage } from "./passages.ts";
import type { Question } from "./question.ts";

/** A question's verb and the particle after it that make one act: "set up", "shut down". */
export type PhrasalVerb = [verb: string, particle: string];

/** How many words after its verb a phrasal verb's particle may stand: "set themselves up". */
const PARTICLE_REACH = 3;

/**
 * The question's phrasal verbs that the retrieved passages also write as one word ("set up"
 * where a page says "setup", "shut down" and "shutdown", "logging in" and "login"): in those
 * wikis the verb and its particle name one act, which the verb alone does not. A pair no page
 * joins ("stored in", "find out") is a verb and a preposition, read as before.
 */
export function phrasalVerbs(question: Question, passages: Passage[]): PhrasalVerb[] {
  const pairs = question.pairs.filter(([verb, particle]) =>
    PARTICLES.has(particle) && !PARTICLES.has(verb) && !STOPWORDS.has(verb)
  );
  if (pairs.length === 0) return [];
  const words = new Set(passages.flatMap((p) => tokenize(`${p.section ?? ""} ${p.text}`)));
  return pairs.filter(([verb, particle]) =>
    words.has(verb + particle) || words.has(stem(verb) + particle)
  );
}

/**
 * A sentence's words without the verb of each phrasal verb (`phrasalVerbs`) the sentence holds
 * only alone: "Setting `unique_tag=az` …" and a table under "JetStream Server settings" do not
 * say how to set up a cluster, and such a row answered "How do I set up a cluster of three
 * servers?" over NATS's docs. The verb counts where its particle follows within
 * `PARTICLE_REACH` words or the text writes the two as one ("setup", "set-up").
 */
export function withoutLoneVerbs(
  terms: Set<string>,
  text: string,
  phrasal: PhrasalVerb[],
): Set<string> {
  if (phrasal.length === 0) return terms;
  const tokens = tokenize(text);
  for (const [verb, particle] of phrasal) {
    const base = stem(verb);
    if (terms.has(base) && !holdsPhrasal(tokens, base, particle)) terms.delete(base);
  }
  return terms;
}

/** Whether the words hold the verb (stemmed) with its particle, apart or joined. */
function holdsPhrasal(tokens: string[], base: string, particle: string): boolean {
  const joined = stem(base + particle);
  return tokens.some((t, i) =>
    stem(t) === joined ||
    (stem(t) === base && tokens.slice(i + 1, i + 1 + PARTICLE_REACH).includes(particle))
  );
}

import { stem } from "./terms.ts";

/**
 * Adjectives of size and the noun documentation names the dimension by: `…_UNIT_WIDTH` for
 * "how wide", `height` for "how high". PostgreSQL's `english` Snowball stemmer gives each pair
 * two lexemes, the light stemmer two stems. "long" and "length" are left out: "how long" asks
 * for a duration.
 */
const ADJECTIVES: [string, string][] = [
  ["wide", "width"],
  ["broad", "breadth"],
  ["high", "height"],
  ["deep", "depth"],
  ["strong", "strength"],
];

/**
 * Verbs and the noun documentation names the setting or section by (`CHANGELOG_RETENTION` for
 * "how long are changes retained"), each pair two Snowball lexemes and two light stems. Written
 * by hand: WordNet's derivational pairs brought in common nouns of other senses ("add" and
 * "addition", "form" and "formation") and lost more than they found (docs/retrieval.md,
 * "Related forms in queries").
 */
const VERBS: [string, string][] = [
  ["retain", "retention"],
  ["maintain", "maintenance"],
  ["store", "storage"],
  ["fail", "failure"],
  ["resolve", "resolution"],
  ["permit", "permission"],
  ["decide", "decision"],
  ["extend", "extension"],
  ["respond", "response"],
  ["describe", "description"],
  ["apply", "application"],
  ["verify", "verification"],
  ["notify", "notification"],
  ["specify", "specification"],
  ["expire", "expiry"],
  ["recover", "recovery"],
  ["discover", "discovery"],
  ["subscribe", "subscription"],
  ["define", "definition"],
  ["consume", "consumption"],
  ["revoke", "revocation"],
  ["invoke", "invocation"],
  ["deliver", "delivery"],
  ["register", "registration"],
  ["compose", "composition"],
];

/** A verb's inflections: "apply", "applies", "applied", "applying"; "permit", "permitted". */
function inflections(verb: string): string[] {
  if (/[^aeiou]y$/.test(verb)) {
    const y = verb.slice(0, -1);
    return [verb, `${y}ies`, `${y}ied`, `${verb}ing`];
  }
  const base = verb.endsWith("mit") ? `${verb}t` : verb.replace(/e$/, "");
  return [verb, `${verb}s`, `${base}ed`, `${base}ing`];
}

let byWord: Map<string, string> | null = null;

/**
 * The noun related to an adjective or a verb that neither stemmer meets with it: "wide" gives
 * "width", "retained" "retention", "applied" "application"; the word lower case, as `tokenize`
 * gives it. An adjective only as it stands ("a higher priority" is no height), a verb in any of
 * its inflections. Only that way: documentation names a setting by the noun where a question
 * asks with the adjective or the verb; a noun in a question is most often the documentation's.
 */
export function relatedForm(word: string): string | null {
  if (byWord === null) {
    byWord = new Map(ADJECTIVES);
    for (const [verb, noun] of VERBS) for (const w of inflections(verb)) byWord.set(w, noun);
  }
  return byWord.get(word) ?? null;
}

/**
 * A phrasal verb and the one verb documentation writes for it: "switched on" is what a setting
 * `METRICS_ENABLED` does, "turn off" what `…_DISABLED` does. "Prometheus scraping /metrics gets
 * nothing useful. What has to be switched on?" ranked the Prometheus ports setting over
 * `METRICS_ENABLED`. `verb` and `particle` are adjacent words of a question, lower case.
 */
export function phrasalForm(verb: string, particle: string): string | null {
  if (!/^(?:switch|turn)(?:es|s|ed|ing)?$/.test(verb)) return null;
  return particle === "on" ? "enable" : particle === "off" ? "disable" : null;
}

/**
 * The related forms of a text's words (`relatedForm`, `phrasalForm`), stemmed, each with the stem
 * of the word it stands for; none the words hold already. `terms` are the text's content words
 * (stem → word, `contentTerms`), `words` all its words in order (`tokenize`). What search's
 * re-scoring reads besides the query's words ("How wide is a rack unit?" names
 * `RACK_ELEVATION_DEFAULT_UNIT_WIDTH`, "What has to be switched on?" `METRICS_ENABLED`), and
 * what `ask` counts a passage holding for the question's word; the lexical leg reads the query as
 * written (docs/retrieval.md, "Related forms in queries").
 */
export function relatedStems(terms: Map<string, string>, words: string[]): Map<string, string> {
  const related = new Map<string, string>();
  const add = (form: string, term: string) => {
    if (!terms.has(stem(form))) related.set(stem(form), term);
  };
  for (let i = 0; i + 1 < words.length; i++) {
    const verb = phrasalForm(words[i]!, words[i + 1]!);
    if (verb) add(verb, stem(words[i]!));
  }
  for (const [term, word] of terms) {
    const noun = relatedForm(word);
    if (noun) add(noun, term);
  }
  return related;
}

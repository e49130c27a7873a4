import { phrasalForm, relatedForm } from "../text/related_forms.ts";
import { contentTerms, stem, tokenize } from "../text/terms.ts";

/**
 * The query's content words (`contentTerms`) with the stems of their related nouns
 * (`relatedForm`): "How wide is a rack unit?" holds `width` too, so re-scoring reads it as
 * naming the section `RACK_ELEVATION_DEFAULT_UNIT_WIDTH`, and "How many days are changes
 * retained?" `CHANGELOG_RETENTION`. The lexical leg reads the query as written: searched there
 * as well, the nouns lost more than they found (docs/retrieval.md, "Related forms in queries").
 */
export function withRelatedTerms(query: string): Set<string> {
  const terms = contentTerms(query);
  const related = new Set(terms.keys());
  for (const word of terms.values()) {
    const noun = relatedForm(word);
    if (noun) related.add(stem(noun));
  }
  // A phrasal verb's one-word form: "switched on" holds `enable` (`phrasalForm`).
  const words = tokenize(query);
  for (let i = 0; i + 1 < words.length; i++) {
    const verb = phrasalForm(words[i]!, words[i + 1]!);
    if (verb) related.add(stem(verb));
  }
  return related;
}

/** Common English words that carry no topic. */
export const STOPWORDS = new Set(
  ("a about above after again against all am an and any are as at be because been before being below " +
    "between both but by can could did do does doing down during each few for from further had has have " +
    "having he her here hers herself him himself his how i if in into is it its itself just me more most " +
    "my myself no nor not now of off on once only or other our ours ourselves out over own same she should " +
    "so some such than that the their theirs them themselves then there these they this those through to " +
    "too under until up very was we were what when where which while who whom why will with would you your " +
    "yours yourself yourselves also may might must shall upon whose within without s t don").split(
      " ",
    ),
);

/** Suffix rules of a light English stemmer; the first that applies wins if 3+ letters remain. */
const SUFFIXES: [RegExp, string | ((m: string) => string)][] = [
  [/ies$/, "y"],
  [/sses$/, "ss"],
  [/([^s])s$/, "$1"],
  [/eed(ly)?$/, "ee"],
  [/(ing|ingly)$/, ""],
  [/(ed|edly)$/, ""],
  [/ational$/, "ate"],
  [/ization$/, "ize"],
  [/(iveness|fulness|ousness)$/, (m) => m.slice(0, -4)],
  [/ly$/, ""],
];

/** Light English stemming: enough to meet `running` with `run` and `studies` with `study`. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  for (const [pattern, replacement] of SUFFIXES) {
    if (!pattern.test(word)) continue;
    const stemmed = typeof replacement === "string"
      ? word.replace(pattern, replacement)
      : word.replace(pattern, replacement);
    if (stemmed.length >= 3) return stemmed;
  }
  return word;
}

/** Lower-case ASCII words and numbers, accents folded. */
export function tokenize(text: string): string[] {
  return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().match(/[a-z0-9]+/g) ??
    [];
}

/** The stemmed content words of a text, each with the first word it came from. */
export function contentTerms(text: string): Map<string, string> {
  const terms = new Map<string, string>();
  for (const token of tokenize(text)) {
    if (STOPWORDS.has(token)) continue;
    const term = stem(token);
    if (!terms.has(term)) terms.set(term, token);
  }
  return terms;
}

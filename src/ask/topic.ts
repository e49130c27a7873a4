import { contentTerms, isIdentifier, stem, STOPWORDS, tokenize } from "../text/terms.ts";

/**
 * What a question asks about, by its form: "What is a space?", "What are teams?", "How do
 * tokens work?", "What does confirm_use do?", "What is max_tokens for?", "Explain Git sync" ask
 * what something is, and its content words (stemmed) are the topic: one to three words, none of
 * them a stopword, and after "what is" no "the" (which asks for a fact about something: "What
 * is the largest city of Poland?"). Other questions have none.
 */
export function definitionTopic(question: string): string[] | null {
  const q = question.trim().replace(/[?.!]+$/, "").trim();
  const forms = [
    /^what(?:'s|\s+is|\s+are)\s+(?:an?\s+)?(.+?)(?:\s+for)?$/i,
    /^how\s+(?:does|do)\s+(?:an?\s+|the\s+)?(.+?)\s+work$/i,
    /^what\s+(?:does|do)\s+(?:an?\s+|the\s+)?(.+?)\s+(?:do|mean)$/i,
    /^(?:explain|describe|tell\s+me\s+about)\s+(?:an?\s+|the\s+)?(.+)$/i,
  ];
  for (const form of forms) {
    const m = form.exec(q);
    if (!m) continue;
    // A name, not a description: no "the", "of", "to"… inside it ("What is the size of the
    // endowment?", "What are stators attached to?" ask for a fact about something).
    const words = tokenize(m[1]!);
    if (words.length === 0 || words.length > 3 || words.some((w) => STOPWORDS.has(w))) return null;
    return [...contentTerms(m[1]!).keys()];
  }
  return null;
}

/** Whether two lists of terms are the same set. */
export function sameTerms(a: string[], b: string[]): boolean {
  const set = new Set(a);
  return a.length > 0 && new Set(b).size === set.size && b.every((t) => set.has(t));
}

const DETERMINER = /^(?:an?|the|one|another|any|some|what|how|where|when|who)$/;

/**
 * Whether "are" is followed by a plural noun that a preposition or relative word goes on from:
 * "Exemplars are references to data outside of the MetricSet" and "Teams are groups of users"
 * say what the topic is, as "A team is a group of users" would; "Stromules are very rare" and
 * "Exemplars are stored in memory" do not.
 */
function pluralNoun(words: string[], verb: number): boolean {
  const noun = words[verb + 1] ?? "";
  return /^[a-z]{3,}[^su]s$/.test(noun) && !/ous$/.test(noun) && !STOPWORDS.has(noun) &&
    /^(?:of|to|that|which|for|with|from|in|on|between)$/.test(words[verb + 2] ?? "");
}

/**
 * Whether a sentence says what the topic is: it opens with the topic as its subject (after
 * "a" or "an"; an aside in parentheses is skipped) followed by "is", "are", "means" or
 * "refers", and for "is" and "are" a noun phrase after ("a", "the", "one", "what"…): "A *space*
 * is a wiki that belongs to…". "While a space is connected, …", "The space is fixed by the
 * token" and "Stromules are very rare" do not.
 */
export function definesTopic(plain: string, topic: string[]): boolean {
  const head = plain.replace(/\([^)]*\)/g, " ").split(/[,:;—–]/)[0] ?? "";
  const words = tokenize(head);
  const verb = words.findIndex((w) => /^(?:is|are|means|refers)$/.test(w));
  if (verb <= 0) return false;
  // "A space is a wiki…" says what a space is; "the space is…" speaks of one space, "a space
  // is fixed by…" and "stromules are very rare" of what happens to it or what it is like.
  if (
    words[verb] !== "means" && words[verb] !== "refers" &&
    !DETERMINER.test(words[verb + 1] ?? "") && !(words[verb] === "are" && pluralNoun(words, verb))
  ) {
    return false;
  }
  const subject = words.slice(/^an?$/.test(words[0]!) ? 1 : 0, verb);
  return !subject.some((w) => STOPWORDS.has(w)) && sameTerms(subject.map(stem), topic);
}

/**
 * The name a section's own heading gives its subject: the part before a colon in headings
 * written "name: what it does" ("ask: get a cited answer" is about `ask`), as content words.
 * Null for a heading without one (its words already count as the section's).
 */
export function headingSubject(section: string | null): string[] | null {
  const parts = (section ?? "").split(" > ");
  if (parts.length < 2) return null;
  const own = parts.at(-1)!;
  const colon = own.indexOf(":");
  if (colon <= 0) return null;
  const terms = [...contentTerms(own.slice(0, colon)).keys()];
  return terms.length > 0 ? terms : null;
}

/**
 * The name a section's own heading is, when it is one: one to three words, each capitalised
 * ("Cursor", "VS Code", "Claude Desktop"), in lower case. Null for another heading, and for the
 * page's own (its title).
 */
export function headingName(section: string | null): string[] | null {
  const parts = (section ?? "").split(" > ");
  if (parts.length < 2) return null;
  const words = parts.at(-1)!.replace(/`/g, "").trim().split(/\s+/);
  if (words.length > 3 || !words.every((w) => /^\p{Lu}/u.test(w))) return null;
  return words.map((w) => w.toLowerCase());
}

/**
 * Capitalised words joined by hyphens ("Blue-Green", "Anti-Affinity"): a compound of prose, not
 * a setting's name, though it has an identifier's shape.
 */
const COMPOUND_WORD = /^\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)+$/u;

/**
 * The parts of a section's own heading, stemmed, when that heading is one identifier of
 * several parts — an option or variable name (`LOG_STORE`, `AGENT_SINGLE_WORKFLOW`,
 * `scrape_interval`, `web.listen-address`), as reference documentation heads a setting's
 * section. Null for another heading, and for the page's own (its title).
 */
export function headingIdentifier(section: string | null): string[] | null {
  const parts = (section ?? "").split(" > ");
  if (parts.length < 2) return null;
  const own = parts.at(-1)!.trim();
  if (!isIdentifier(own) || COMPOUND_WORD.test(own)) return null;
  const terms = [...contentTerms(own).keys()];
  return terms.length >= 2 ? terms : null;
}

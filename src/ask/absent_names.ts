import { contentTerms } from "../text/terms.ts";
import { isEnglish } from "../text/english_words.ts";
import type { AskRetrieval } from "../search/ask_retrieval.ts";
import type { Passage } from "./passages.ts";
import { asks, type Question, sentencesOf } from "./question.ts";

/**
 * A phrase that sets a name aside as given rather than asked about: "Besides Ctrl-C, which
 * signals should I send?" asks for other signals, and a page that never writes "Ctrl" can
 * still answer it.
 */
const GIVEN = /\b(?:besides|apart from|other than|except(?: for)?|aside from)\s+$/i;

/**
 * The names a question asks about that the wiki never writes: its capitalised words past the
 * first of each sentence that asks (ends with a question mark), in none of the retrieved
 * passages' titles, sections and texts and in no page of the wiki (search's lexeme for the word
 * has no document: `terms`, whose stems are prefixes of the words; a word search does not
 * index, as a stop word, is taken as written). Documentation that never names a product, a protocol or a
 * platform does not say how the product works with it: "Can cluster members discover each
 * other through Consul?" was answered with the clustering page's "all servers are able to
 * discover other server in the cluster" and read `supported`, and "How do I run steps on a
 * Nomad cluster backend?" with the Kubernetes backend's cluster domain. A name in a sentence
 * that tells the user's story ("On our little NAS, …"), or in a clause before a semicolon that
 * does ("Our autoscaler creates a fresh VM per job; how do I make the agent shut down after a
 * single workflow?"), is not asked about, nor is one set aside as given (`GIVEN`). A
 * command-line flag the question names (`--storage.tsdb.min-block-duration`) is a name too,
 * held only when a passage writes it whole: "What's the default value of the
 * --storage.tsdb.min-block-duration flag?" was answered with the backfilling tool's
 * `--max-block-duration` and read `supported`. A word in lower case is a name when English does
 * not have it (`englishWords`): "How do I forward Nautobot's logs to a remote syslog server?" was
 * answered with the installation metrics setting ("will send anonymized installation metrics")
 * and read `supported`; so was "How do I deduplicate the samples …?" on docs that never say it.
 */
export function absentNames(
  question: Question,
  passages: Passage[],
  terms: AskRetrieval["terms"],
  /** The content words the passages hold (`heldTerms`). */
  held: Set<string>,
  /** English's words (`englishWords`): a lower-case word outside them is a name too. */
  english?: ReadonlySet<string>,
): string[] {
  const asked = sentencesOf(question.text).filter(asks)
    .map((s) => s.slice(s.lastIndexOf(";") + 1).trim());
  const names: string[] = [];
  for (const sentence of asked) {
    const words = [...sentence.matchAll(/\p{L}[\p{L}\p{N}'’-]*/gu)].slice(1);
    for (const m of words) {
      const capital = /^\p{Lu}/u.test(m[0]);
      if ((!capital && !english) || GIVEN.test(sentence.slice(0, m.index))) continue;
      for (const [t, word] of contentTerms(m[0])) {
        if (!capital && (word.length < 3 || isEnglish(english!, word))) continue;
        const lexemes = terms.filter((l) => word.startsWith(l.term));
        if (held.has(t) || lexemes.length === 0 || lexemes.some((l) => l.df > 0)) continue;
        names.push(word);
      }
    }
  }
  // A flag is a name written whole: its parts ("storage", "block", "duration") are on many pages.
  const texts = passages.map((p) => p.text.toLowerCase());
  for (const sentence of asked) {
    for (const [flag] of sentence.matchAll(/(?<![\w-])--[a-z][\w.-]*\w/gi)) {
      if (!texts.some((t) => t.includes(flag.toLowerCase()))) names.push(flag);
    }
  }
  return [...new Set(names)];
}

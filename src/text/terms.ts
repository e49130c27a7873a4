import { boundedMemo } from "../lib/bounded_memo.ts";
/**
 * Common English words that carry no topic, as the offline embedder has always dropped them: its
 * vectors are stored, so this list stays as it is (`STOPWORDS` adds to it).
 */
export const EMBEDDER_STOPWORDS: ReadonlySet<string> = new Set(
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

/**
 * Common English words that carry no topic: the embedder's, and the halves a negative
 * contraction leaves ("doesn't" is `doesn` and `t`). Without them "… so it doesn't flap?" noted
 * that no passage mentions "doesn".
 */
export const STOPWORDS: ReadonlySet<string> = new Set([
  ...EMBEDDER_STOPWORDS,
  ..."doesn isn aren wasn weren hasn haven hadn didn wouldn shouldn couldn mustn needn ll ve re"
    .split(" "),
]);

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

/**
 * Light English stemming: enough to meet `running` with `run` and `studies` with `study`.
 * The offline embedder's: its vectors are stored, so its words stay as they were indexed.
 */
export const lightStem: (word: string) => string = boundedMemo(stemOnce, 50_000);

/**
 * The stem words are compared by: `lightStem`, then a final `e` dropped when three letters
 * remain, so a verb meets its own past and present forms: "stored" and "store" (`stor`),
 * "enabled" and "enable", "making" and "make", "required" and "require". Without it "Where are
 * step logs stored?" shared no word with a section headed `LOG_STORE`. Remembered across calls
 * for 50,000 words (`boundedMemo`): a search stems the words of its query, its candidates'
 * titles and headings and its snippets' texts, mostly the same words again.
 */
export const stem: (word: string) => string = boundedMemo((word) => {
  if (SECURE_PROTOCOL.test(word)) return word;
  const number = NUMBER_WORDS.indexOf(word);
  if (number >= 0) return String(number);
  let light = stemOnce(word);
  // A plural of an -ing or -ed word loses that ending too: "settings" meets "setting".
  if (light !== word && /(?:ing|ed)$/.test(light)) light = stemOnce(light);
  light = undoubled(word, light).replace(AGENT_OF_EN_VERB, "$1en").replace(ACT_OF_ATE_VERB, "$1at");
  return light.length > 3 && light.endsWith("e") && !/\d/.test(light) ? light.slice(0, -1) : light;
}, 50_000);

/**
 * Numbers written as words are their digits: "a cluster of three servers" meets "a cluster of 3
 * servers", "one agent" meets "1 agent". "How do I set up a cluster of three servers?" shared no number with the sentence
 * that answers it ("how to run a cluster of 3 servers on the same host").
 */
const NUMBER_WORDS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
];

/**
 * A consonant doubled before -ing or -ed is one: "flapping" meets "flaps" (`flap`), "logging"
 * meets "logs", "stopped" meets "stop"; `ll`, `ss` and `zz` stay ("filled" is `fill`, "passing"
 * is `pass`). Without it "… so it doesn't flap?" noted that no passage mentions "flap" under a
 * quote about flapping alerts.
 */
function undoubled(word: string, light: string): string {
  if (!/(?:ing|ed)s?$/.test(word) || !/([b-df-hj-km-np-rtv-y])\1$/.test(light)) return light;
  return light.length > 3 ? light.slice(0, -1) : light;
}

/**
 * A protocol's secure form (`https`, `ftps`, `sftps`) is another protocol, not a plural: taken
 * as one, "What port does the server listen on for HTTP?" met the section of the HTTPS
 * listener (`SERVER_ADDR_TLS`) as well as the HTTP one.
 */
const SECURE_PROTOCOL = /^[a-z]*tps$/;

/**
 * The one who does what an `-en` verb says is the verb's: "listener" meets "listen",
 * "shortener" meets "shorten" (the light stemmer keeps `-er` nouns
 * whole, as it must for "server" or "user").
 */
const AGENT_OF_EN_VERB = /^([a-z]{3,}[^aeiou])ener$/;

/**
 * The act an `-ate` verb names is the verb's: "rotation" meets "rotate" and "rotated" (`rotat`),
 * "validation" meets "validate", "migration" "migrate". Only in words of eight letters or more:
 * "station" is not "state", nor "nation" NATS. "How do I rotate the log file?" missed the sentence
 * on the "auto-rotation of log files" and opened with "The rest of the file specifies …".
 */
const ACT_OF_ATE_VERB = /^([a-z]{2,}[^aeiou\d])ation$/;

function stemOnce(word: string): string {
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

/** The adverbs of English phrasal verbs, whose noun is written as one word: "a backup". */
export const PARTICLES: ReadonlySet<string> = new Set(
  ["up", "in", "out", "down", "off", "on", "over", "back", "away"],
);

/**
 * Han, kana and Hangul: scripts written without spaces between words (Korean has spaces but
 * glues particles on). Their runs are indexed as overlapping character pairs; the lexical
 * index's `search_text` (migrations/0012_search_text.sql) uses the same ranges.
 */
export const CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af";

/**
 * ASCII words first (so English text splits exactly as it always has), then runs of CJK,
 * then words of any other script (Cyrillic, Greek, accented Latin kept whole).
 */
const WORD = new RegExp(`[a-z0-9]+|[${CJK}]+|[[\\p{L}\\p{N}]--[${CJK}]]+`, "gv");

/**
 * Lower-case words and numbers in any script, accents folded: ASCII words as they are,
 * Cyrillic and Greek as words, CJK runs as character bigrams (a single character alone).
 * Emoji and punctuation give no token.
 */
export function tokenize(text: string): string[] {
  // NFKD then NFC: compatibility forms (full-width letters) fold and accents drop, while
  // Hangul syllables and kana with voicing marks are composed again.
  // ASCII is its own normal form: spared the two passes (most words of most wikis).
  const folded = !NOT_ASCII.test(text)
    ? text.toLowerCase()
    : text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").normalize("NFC").toLowerCase();
  const tokens: string[] = [];
  for (const [word] of folded.matchAll(WORD)) {
    if (!CJK_RUN.test(word)) {
      tokens.push(word);
      continue;
    }
    const chars = [...word];
    if (chars.length === 1) tokens.push(word);
    for (let i = 0; i + 1 < chars.length; i++) tokens.push(chars[i]! + chars[i + 1]!);
  }
  return tokens;
}

/** Anything but printable ASCII and ordinary whitespace. */
const NOT_ASCII = /[^ -~\t\n\r]/;

const CJK_RUN = new RegExp(`^[${CJK}]`, "v");

const CJK_RUNS = new RegExp(`[${CJK}]+`, "gv");

/**
 * Text as the lexical index reads it: CJK runs spelled out as space-separated character
 * bigrams (PostgreSQL's parser would take a whole run, a clause or more, as one word), the
 * rest unchanged for the `english` configuration to split and stem. Used on chunks when they
 * are indexed and on queries, so both sides split the same way.
 */
export function lexicalText(text: string): string {
  return text.replace(CJK_RUNS, (run) => {
    const chars = [...run];
    if (chars.length === 1) return ` ${run} `;
    const pairs = [];
    for (let i = 0; i + 1 < chars.length; i++) pairs.push(chars[i]! + chars[i + 1]!);
    return ` ${pairs.join(" ")} `;
  });
}

/**
 * PostgreSQL's lexeme of a hyphenated word taken whole (`self-renew`, `h2a-h2b`, `привет-мир`):
 * parts joined by hyphens, none holding a dot, slash, `@` or colon (hosts, paths, URLs and
 * e-mail addresses, which the parser keeps whole and alone), and no exponent (`1e-5`). The
 * parser gives such a word whole and as its parts ("self-renewing": `self-renew`, `self`,
 * `renew`). The query's BM25 skips the whole form when one of its parts is a query term too
 * (`selectLexicalStats`, `selectBm25`, with PostgreSQL's `~`): counted both ways the word weighed
 * three times the query's others, and its rare whole form rewarded only the texts hyphenated
 * alike; a word of stop words only ("to-do", whose parts PostgreSQL drops) stays whole.
 * docs/retrieval.md, "Hyphenated words in queries".
 */
export const HYPHENATED_WHOLE = "^(?![0-9]+e-[0-9]+$)[^-./@:]+(-[^-./@:]+)+$";

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

/**
 * Whether a text's content words (`contentTerms` order) hold `parts` in the same order, other
 * words between them allowed: "Where are step logs stored?" names `LOG_STORE`, "What callback
 * URL goes into the GitHub app?" does not name `GITHUB_URL`.
 */
export function holdsInOrder(words: string[], parts: string[]): boolean {
  let at = 0;
  for (const w of words) if (w === parts[at]) at++;
  return parts.length > 0 && at === parts.length;
}

/**
 * Whether a text is one identifier of several parts — an option or variable name such as
 * `LOG_STORE`, `AGENT_SINGLE_WORKFLOW`, `scrape_interval`, `web.listen-address`, `--dry-run` — as
 * reference documentation heads a setting's section with its name.
 */
export function isIdentifier(text: string): boolean {
  return /^`?-{0,2}[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)+`?$/.test(text.trim());
}

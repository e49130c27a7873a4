import { wordCount } from "../text/sentences.ts";

/**
 * What a question asks for and what a sentence is, as the extractive picker (`extractive.ts`)
 * reads them: rules of form, each with the case that taught it (docs/answers.md).
 */

/**
 * A sentence that announces what its page or section is about ("This page explains which to
 * use, … and what happens when you send too many requests") matches a question's words
 * without answering it.
 */
export function announcesPage(sentence: string): boolean {
  return /^(?:this|the following|the next|below,? the) (?:page|section|guide|chapter|document|article)s? (?:explains?|covers?|describes?|shows?|lists?|tells?|says?|is about|gives?)\b/i
    .test(sentence.trim());
}

/**
 * A sentence that sends the reader elsewhere ("See the Windows Service section for information
 * on signaling the NATS server on Windows.", "For more details, refer to the TLS page.") names
 * what the question names without answering it: the page it points to answers.
 */
export function pointsElsewhere(sentence: string): boolean {
  const plain = sentence.trim().replace(/^(?:>\s*)?(?:please,?\s+)?/i, "");
  return /^(?:see|refer to|check out|consult|read)\s+(?:the\s+|our\s+)?\S.{0,80}?\b(?:section|page|guide|chapter|docs|documentation|article|reference|tutorial|below|above)\b[^.]*\.?$/i
    .test(plain) ||
    /^for (?:more|further|additional|full|complete|detailed) (?:information|details|info)\b[^,]*,\s*(?:see|refer to|check|read|consult)\b[^.]*\.?$/i
      .test(plain);
}

/**
 * Whether a question asks for something a code block answers: a command, a configuration, an
 * example, or it names code itself (`DATABASE_URL`, `--flag`, a path, `key=value`, backticks).
 * Otherwise a fenced block is not an answer: a JSON example full of "page" and "section" matched
 * "How do I link to a section of another page?" better than the sentence that says how, and read
 * as `{; "wiki": "docs",; …`.
 */
export function asksForCode(question: string): boolean {
  return CODE_WORDS.test(question) || RUN_ASKED.test(question) || CODE_TOKEN.test(question);
}

/**
 * "Run" and "start" ask for a command only as the verb asked about ("How do I run promtool's
 * tests?", "What do we run?", "…to start the server"). Said of the thing ("when Prometheus runs
 * as an agent", "We run three JetStream servers. How many…", "refuses to start with…") they
 * tell the story, and made a long configuration block a candidate that held the question's
 * words by their number ("How many have to be up…" answered with a CI workflow file).
 */
const RUN_ASKED =
  /\b(?:how\s+(?:do|does|can|could|should|would|to)\s+(?:\S+\s+){0,2}?|(?:what|which)\s+(?:\S+\s+){0,2}?(?:do|does|should|can|must)\s+(?:i|we|you)\s+|(?:need|want|have)\s+to\s+)(?:run|start)\b/i;

const CODE_WORDS =
  /\b(?:looks? like|commands?|install|configure|config|configuration|set ?up|example|snippet|script|syntax|curl|cli|flags?|options?|environment|env|variables?|deploy|build|request|response|json|yaml|sql|query)\b/i;
const CODE_TOKEN = /`|(?:^|\s)(?:--?[a-z]|\/\w)|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\w=\w/;

/**
 * Whether a table row only lists names: no cell holds three words outside code spans and
 * links. "| `create-space`, `create-token`, `list-tokens`, `revoke-token` | See [[Tokens]] |"
 * holds "create", "space" and "token" and answers nothing; "| `PORT` | `8000` | Port the HTTP
 * server listens on |" says something.
 */
export function listsNames(row: string): boolean {
  const cells = row.trim().replace(/^\|/, "").replace(/\|$/, "").split("|");
  return !cells.some((cell) =>
    wordCount(cell.replace(/`[^`]*`|\[\[[^\]]*\]\]|\[[^\]]*\]\([^)]*\)/g, " ")) >= 3
  );
}

/**
 * A sentence without its code spans that show link syntax: "`[[tokens]]` and
 * `[[guides/getting_started]]` work" shows how to write a link, and is not about tokens. Spans
 * are read in pairs of backticks from the start: one pattern spanning any backticks took the
 * text between two spans for one, and a row of NATS's limits table ("`max_payload` | Maximum
 * number of bytes in a message payload … [chunking](…) … `max_payload` …") lost everything
 * between its name and the link, "maximum" and "size" with it.
 */
export function withoutSyntaxExamples(text: string): string {
  return text.replace(/`[^`]*`/g, (span) => /\[\[|\]\(/.test(span) ? " " : span);
}

/** Whether a question asks for an amount: how many, how much, how long, what percentage… */
export function asksForNumber(question: string): boolean {
  return /\b(?:how (?:many|much|long|old|far|often|big|large)|what (?:percentage|number|year))\b/i
    .test(question);
}

/**
 * Whether a sentence states an amount: a number, a number word, or "an hour", "a day"… A number
 * is read from its first digit, which no letter, digit, `/`, `_` or `#` comes right before: an
 * issue's number ("More details can be found in issue #3779") is no amount, and a sentence saying
 * so answered "How many uWSGI worker processes does the Docker container start by default?" over
 * the setting's "Default: `3`".
 */
export function holdsNumber(sentence: string): boolean {
  return /(?<![\p{L}\d/_#])\d|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozens?|half|quarter|twice|(?:an?|per|each|every) (?:second|minute|hour|day|week|month|year|decade|century))\b/iu
    .test(sentence);
}

import { contentTerms, holdsInOrder } from "../text/terms.ts";
import type { Passage } from "./passages.ts";
import { plainText, type Sentence } from "../text/sentences.ts";
import {
  announcesPage,
  holdsNumber,
  listsNames,
  pointsElsewhere,
  withoutSyntaxExamples,
} from "./sentence_kinds.ts";
import {
  definesTopic,
  headingIdentifier,
  headingName,
  headingSubject,
  sameTerms,
} from "./topic.ts";
import { type Question, termsInOrder, withCompounds } from "./question.ts";
import { rowLabel } from "../text/unit_markdown.ts";
import { commentStart, locatedSentences } from "./located_sentences.ts";
import { type PhrasalVerb, phrasalVerbs, withoutLoneVerbs } from "./phrasal.ts";

/**
 * A "sentence" longer than this is not an answer (a page of one run-on paragraph, a log without
 * full stops); leaving it out keeps the work per question bounded whatever a page holds.
 */
const LONGEST = 2_000;

/** Weight of the passage's retrieval rank beside the sentence's own match. */
const RANK_PRIOR = 0.3;

/** Added to a sentence that says what the question's topic is (`definitionTopic`). */
const DEFINES = 0.5;

/** Added to a sentence of a section whose heading names what the question names. */
const NAMED_SECTION = 0.3;

/** Taken from a sentence without a number when the question asks for one. */
export const NO_NUMBER = 0.3;

/**
 * The sentences of the retrieved passages that may answer the question, each once, with the
 * words it holds and its bonuses; only the named page's when a page's title is the question's
 * topic.
 */
export function candidatesOf(question: Question, passages: Passage[]): Candidate[] {
  const phrasal = phrasalVerbs(question, passages);
  let candidates = passages.flatMap((passage, rank) =>
    candidatesIn(question, passage, rank, phrasal)
  );
  // A page whose title is the question's topic answers it; the other pages only mention the
  // topic ("`[[Tokens]]` links to the page `Tokens`…"), unless a sentence there defines it.
  if (candidates.some((c) => c.onNamedPage)) {
    candidates = candidates.filter((c) => c.onNamedPage || c.defines);
  }
  // Overlapping windows of a long section hold the same sentence at the same page offset: it
  // counts once, from the better-ranked passage.
  const once = new Set<string>();
  return candidates.filter((c) => {
    const at = `${c.passage.pageId}:${c.sentence.start}`;
    if (once.has(at)) return false;
    once.add(at);
    return true;
  });
}

/** The sentences of one passage (at retrieval rank `rank`) that may answer the question. */
function candidatesIn(
  question: Question,
  passage: Passage,
  rank: number,
  phrasal: PhrasalVerb[],
): Candidate[] {
  // A question asking what something is ("How do tokens work?") is about its topic alone: the
  // words of its form ("work") are not what an answer must hold.
  const topic = question.topic;
  const code = question.wants.code;
  const number = question.wants.amount;
  const qSet = new Set(question.asked);
  const heading = subsectionTerms(passage);
  const subject = headingSubject(passage.section);
  const named = subject !== null && subject.every((t) => qSet.has(t));
  const name = headingName(passage.section);
  const identifier = headingIdentifier(passage.section);
  const byName = name !== null && namesHeading(question, name) && asksUnder(question, passage);
  const namedBy = byName ||
    (identifier !== null && holdsInOrder(termsInOrder(question), identifier));
  // How many words of its heading name what the question names: "Configure NGINX" (two) over
  // "NGINX" (one) for "How do I configure NGINX as the reverse proxy?".
  const namedWords = byName ? name!.length : namedBy ? identifier!.length : 0;
  const onNamedPage = topic !== null && sameTerms([...contentTerms(passage.title).keys()], topic);
  // The lead of the page the question's topic names says what the topic is.
  const lead = onNamedPage && !(passage.section ?? "").includes(" > ");
  const aboutOutput = [...question.terms.keys()].some((t) => ABOUT_OUTPUT.has(t));
  const units = locatedSentences(passage).flatMap((s) =>
    s.kind === "code" && number && !code && !printedOutput(s.text) &&
      !statesDefault(s.text, number)
      ? defaultLines(passage.markdown, s)
      : [s]
  );
  return units.filter((s) =>
    s.text.length >= 20 && s.text.length <= LONGEST && !announcesPage(s.text) &&
    !pointsElsewhere(s.text) && !(s.kind === "row" && listsNames(s.text)) &&
    (s.kind !== "code"
      ? true
      : printedOutput(s.text)
      ? aboutOutput
      : code || statesDefault(s.text, number))
  ).map(
    (s) => {
      const plain = plainText(s);
      const terms = withoutLoneVerbs(
        new Set([
          ...withCompounds(question, plainText({ ...s, text: withoutSyntaxExamples(s.text) })),
          ...heading,
          ...(s.kind === "row" ? columnTerms(s.text, passage.markdown, s.start) : []),
        ]),
        `${plain} ${subsections(passage)}`,
        phrasal,
      );
      const defines = topic !== null &&
        (definesTopic(plain, topic) || (lead && topic.some((t) => terms.has(t))));
      const untyped = number && !holdsNumber(plain);
      const bonus = (defines ? DEFINES : 0) + (named ? NAMED_SECTION : 0) -
        (untyped ? NO_NUMBER : 0);
      return {
        passage,
        rank,
        sentence: s,
        plain,
        terms,
        bonus,
        untyped,
        defines,
        onNamedPage,
        named,
        namedBy,
        namedWords,
      };
    },
  ).filter((c) => c.plain.length >= 15 && (topic === null || topic.some((t) => c.terms.has(t))));
}

/**
 * Scores the candidates, best first: the rarity-weighted share of the question's words each
 * holds (`covered`, with each word's weight in `idf`), plus the rank prior and its bonuses.
 */
export function scoreCandidates(qTerms: string[], candidates: Candidate[]) {
  const idf = new Map(qTerms.map((t) => {
    const df = candidates.filter((c) => c.terms.has(t)).length;
    return [t, Math.log(1 + candidates.length / (1 + df))];
  }));
  const total = qTerms.reduce((sum, t) => sum + idf.get(t)!, 0);
  const covered = (terms: Set<string>) =>
    qTerms.reduce((sum, t) => sum + (terms.has(t) ? idf.get(t)! : 0), 0) / total;
  const all = candidates.map((c) => ({
    ...c,
    coverage: covered(c.terms),
    score: covered(c.terms) + RANK_PRIOR / (c.rank + 1) + c.bonus,
  }))
    .sort((a, b) => b.score - a.score);
  // A sentence holding no word of the question is never an answer, whatever its bonuses (a
  // number where the question asks for an amount).
  let scored = all.some((c) => c.coverage > 0) ? all.filter((c) => c.coverage > 0) : all;
  // A section named after a name the question holds ("Cursor") answers it; of two, the one
  // whose heading names more of the question.
  const most = Math.max(0, ...scored.map((c) => c.namedWords));
  // Its prose first: the sentence that announces a block brings it (`withContinuations`); a
  // window of a long block alone is a fragment of it.
  const named = scored.filter((c) => c.namedBy && c.namedWords === most);
  const byName = named.find((c) => c.sentence.kind === "prose" && !("codeOf" in c.sentence)) ??
    named[0];
  if (byName) scored = [byName, ...scored.filter((c) => c !== byName)];
  return { idf, covered, scored };
}

/** A sentence that may answer the question, before it is scored. */
type Candidate = Omit<Scored, "coverage" | "score">;

/** A candidate with its share of the question's words (`coverage`) and its `score`. */
export type Scored = {
  passage: Passage;
  rank: number;
  sentence: Sentence & { quote: string };
  plain: string;
  terms: Set<string>;
  untyped: boolean;
  bonus: number;
  defines: boolean;
  onNamedPage: boolean;
  named: boolean;
  namedBy: boolean;
  namedWords: number;
  coverage: number;
  score: number;
};

/** A code block of at most this many lines (its fences too) is a setting or two. */
const SETTING_LINES = 8;

/**
 * A short code block stating a default with a number (`[ max_exemplars: <int> | default =
 * 100000 ]`, `# Default: 5s`) is how reference documentation gives a setting's default: for a
 * question asking for an amount it is a unit that may answer, though the question asks for no
 * code. Before, only a block a window cut was read; a whole block was left out, and "How many
 * exemplars can the store hold by default?" was answered from another page's "100 bytes".
 */
function statesDefault(text: string, number: boolean): boolean {
  return number && text.split("\n").length <= SETTING_LINES && /\bdefault\b/i.test(text) &&
    /\d/.test(text);
}

/**
 * Whether the question asks about what a section named after a name stands under: the section
 * is its page's own ("Connecting an assistant > Cursor"), or the question shares a word with
 * the heading right above it or with the page's title ("Can I run pipelines with Podman instead
 * of Docker?" and "Docker > Tips and tricks > Podman"). A section of that name under another
 * subject ("Analysis & Progressive Delivery > … > Empty array > Prometheus") is that subject for
 * the named thing: "On which port does the controller expose its Prometheus metrics?" was
 * answered first with how Prometheus's empty results are handled.
 */
function asksUnder(question: Question, passage: Passage): boolean {
  const parts = (passage.section ?? "").split(" > ");
  if (parts.length <= 2) return true;
  return [parts.at(-2)!, passage.title].some((heading) =>
    [...contentTerms(heading).keys()].some((t) => question.terms.has(t))
  );
}

/**
 * Whether the question names a heading that is a name (`headingName`): each of its words is one
 * of the question's capitalised words, or, in a heading of several words one of which is, the
 * same word written in lower case. A heading in title case joins a name with words a question
 * writes in lower case: "Configure NGINX" for "How do I configure NGINX?", "Celery Worker" for
 * "How do I run the Celery worker as a systemd service?". The word as written, not its stem:
 * "API Versioning" is not named by "an older API version" (its subsection "API Version
 * Deprecation Policy" answers); and a content word: "The Web UI" is not named by "… without
 * anyone clicking in the web UI?".
 */
function namesHeading(question: Question, name: string[]): boolean {
  const named = name.filter((w) => question.names.includes(w));
  // The question's content words as written, lower case (`terms` maps each stem to its word).
  const words = new Set(question.terms.values());
  return named.length > 0 &&
    name.every((w) => named.includes(w) || (name.length > 1 && words.has(w)));
}

/** A comment stating a default with a number: `timeoutSeconds: 20 # defaults to 10 seconds`. */
const DEFAULT_COMMENT = /(?:#|\/\/).*\bdefault(?:s|ed)?\b.*\d/i;

/**
 * The lines of a long code block that state a default with a number in a comment
 * (`DEFAULT_COMMENT`), each with the comment lines above it and, when the comment has a line
 * of its own (`# Defaults to 600s`), the setting line it describes: for a question asking for
 * an amount, units that may answer, shown as the code they are. A long example block is not
 * a candidate as a whole (`statesDefault`), and "How long does a web metric wait … if no
 * timeout is set?" went unanswered although the example says `timeoutSeconds: 20 # defaults to
 * 10 seconds`.
 */
function defaultLines(
  markdown: string,
  block: Sentence & { quote: string },
): (Sentence & { quote: string; codeOf: string })[] {
  const codeOf = /^ {0,3}(?:`{3,}|~{3,})\s*([\w+#.-]*)/.exec(block.quote)?.[1] ?? "";
  const lines: [number, number][] = [];
  for (let at = block.start; at < block.end;) {
    const end = markdown.indexOf("\n", at);
    const stop = end < 0 || end > block.end ? block.end : end;
    lines.push([at, stop]);
    at = stop + 1;
  }
  const comment = (line: string) => /^[ \t]*(?:#|\/\/)/.test(line);
  const out: (Sentence & { quote: string; codeOf: string })[] = [];
  for (const [i, [a, b]] of lines.entries()) {
    const line = markdown.slice(a, b);
    if (i === 0 || i === lines.length - 1 || !DEFAULT_COMMENT.test(line)) continue;
    // A comment of its own line describes the setting below it.
    const setting: [number, number] | undefined = comment(line)
      ? lines.slice(i + 1, -1).find(([c, d]) => !comment(markdown.slice(c, d)))
      : [a, b];
    if (!setting || (out.length > 0 && out.at(-1)!.end >= setting[1])) continue;
    const start = commentStart(markdown, a, lines[0]![1]);
    const quote = markdown.slice(start, setting[1]);
    out.push({ text: quote, start, end: setting[1], quote, kind: "prose", codeOf });
  }
  return out;
}

/**
 * Whether a code block is what a program printed, not what to write or run: most of its lines
 * open with a time stamp, as a server's log does. "How do I set up a cluster of three servers?"
 * was answered with two blocks of nats-server's log lines, the commands that started the servers
 * left out. Such a block answers only a question about what is logged or printed
 * (`ABOUT_OUTPUT`).
 */
function printedOutput(text: string): boolean {
  const lines = text.split("\n").filter((l) => l.trim() !== "" && !/^\s*(?:```|~~~)/.test(l));
  const stamped = lines.filter((l) => STAMPED_LINE.test(l)).length;
  return lines.length >= 2 && stamped >= lines.length * 0.6;
}

/** A line opening with a time stamp, after a bracketed process id or level if any. */
const STAMPED_LINE =
  /^\s*(?:\[[^\]\n]{1,40}\]\s*)?(?:\d{4}[-/.]\d{2}[-/.]\d{2}[ T]\d{2}:\d{2}|\d{2}:\d{2}:\d{2})/;

/** The stems of a question about what a program logs or prints. */
const ABOUT_OUTPUT = new Set(["log", "output", "print", "messag", "error", "warn", "line", "say"]);

/** The words of what a table row names by its header (`rowLabel`: "Flag"). */
function columnTerms(row: string, markdown: string, start: number): string[] {
  return [...contentTerms(rowLabel(row, markdown, start)).keys()];
}

/**
 * The content words of the headings a passage stands under, below its page's own heading: a
 * sentence under "Link pages with wikilinks" is about linking pages even when it only says
 * "`[[Tokens#Rate limits]]` links to the section …", so it holds "page" for the question "How do
 * I link to a section of another page?". The page's own heading (its title) is left out: it names
 * the topic every sentence of the page shares, and the verdict weighs title words on its own.
 */
export function subsectionTerms(passage: Passage): string[] {
  const below = subsections(passage);
  return below ? [...contentTerms(below).keys()] : [];
}

/** The headings a passage stands under, below its page's own heading. */
function subsections(passage: Passage): string {
  return (passage.section ?? "").split(" > ").slice(1).join(" ");
}

import { contentTerms, holdsInOrder, isIdentifier } from "../text/terms.ts";
import type { Passage } from "./passages.ts";
import { plainText, type Sentence, splitSentences, wordCount } from "../text/sentences.ts";
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
import { type Question, withCompounds } from "./question.ts";
import { findLoosely } from "./locate.ts";
import {
  composeAnswer,
  rowLabel,
  smallTable,
  unitMarkdown,
  withCodeSpans,
} from "../text/unit_markdown.ts";
import { boundedMemo } from "../lib/bounded_memo.ts";
import { calloutAround } from "../text/callouts.ts";

/**
 * A sentence chosen for an extractive answer: `quote` is `passage.markdown.slice(start, end)`,
 * byte for byte; `plain` is the same sentence rendered to plain text for the answer.
 */
export type Pick = {
  passage: Passage;
  quote: string;
  start: number;
  end: number;
  plain: string;
  /**
   * What block the sentence is (`Sentence["kind"]`, a whole numbered list: `wholeList`, or a
   * whole short section: `wholeSection`), and
   * its clean markdown (`unitMarkdown`).
   */
  kind: Sentence["kind"] | "list" | "section";
  shown: string;
  coverage: number;
};

/** What the picker saw, for the verdict (src/ask/verdict.ts). */
export type SentenceEvidence = {
  /** Rarity-weighted share of the question's words in the best sentence. */
  best: number;
  /** The same share in the best sentence's whole passage, with its title and section. */
  passage: number;
  /** The same share over all picked sentences. */
  union: number;
  /** Share of the question's adjacent word pairs that stand together in the best sentence. */
  bigrams: number;
  /** Whether the question's rarest word (among retrieved sentences) is in the best sentence. */
  rarest: boolean;
  /** Whether the best sentence holds a number where the question asks for one. */
  typeMatch: number;
  /** How many content words the question has. */
  terms: number;
  /** `best`, counting only the question's words that are not in the best page's title. */
  specific: number;
  /** How many of the question's content words the best sentence lacks. */
  missing: number;
  /** Retrieval rank of the best sentence's passage (0 is the best-ranked). */
  bestRank: number;
  /** The best share of the question's words in one sentence of the best-ranked passage. */
  topSentence: number;
};

/**
 * A "sentence" longer than this is not an answer (a page of one run-on paragraph, a log without
 * full stops); leaving it out keeps the work per question bounded whatever a page holds.
 */
const LONGEST = 2_000;
/** At most this many sentences make an extractive answer. */
const MAX_SENTENCES = 4;
/** Weight of the passage's retrieval rank beside the sentence's own match. */
const RANK_PRIOR = 0.3;
/** Added to a sentence that says what the question's topic is (`definitionTopic`). */
const DEFINES = 0.5;
/** Added to a sentence of a section whose heading names what the question names. */
const NAMED_SECTION = 0.3;
/** Taken from a sentence without a number when the question asks for one. */
const NO_NUMBER = 0.3;
/** A further sentence must score at least this share of the best one. */
const FOLLOW = 0.6;
/** The best-ranked pages that each get their best sentence in… */
const TOP_PAGES = 3;
/** …when it matches at least this share of what the best sentence matches. */
const MIN_SHARE = 0.2;
/** The share of the best sentence's coverage another page's sentence needs to add a part asked. */
const OTHER_PART = 0.5;
/** How many of the words the section lacks that sentence must hold (a part, not a shared word). */
const PART_WORDS = 2;

/** A unit of a passage's page, with its quote (and, for a code block, its code). */
type LocatedUnit = Sentence & { quote: string; codeOf?: string };

/** Sentences of a passage located in its page's markdown (quotes are cut from the page). */
export function locatedSentences(passage: Passage): LocatedUnit[] {
  const out: LocatedUnit[] = [];
  const blocks = codeBlocks(passage.markdown);
  for (const s of splitSentences(passage.text)) {
    if (s.kind === "heading" || s.kind === "markup") continue;
    let start: number;
    let end: number;
    if (passage.offset >= 0) {
      start = passage.offset + s.start;
      end = passage.offset + s.end;
    } else {
      const found = findLoosely(passage.markdown, s.text) ?? inCallout(passage.markdown, s.text);
      if (!found) continue;
      [start, end] = found;
    }
    // A window of a long section may begin or end inside a code block (sections are cut at
    // blank lines): the lines it holds of the block read as prose ("[ honor_labels: <boolean> |
    // default = false ]"). They stay candidates, and are shown as the code they are.
    const block = s.kind === "code" ? undefined : blocks.find(([a, b]) => start >= a && end <= b);
    if (block) {
      // The comment lines right above a setting's line are its description (a configuration
      // reference's "# If honor_labels is set to "false", … renamed to exported_job"): they
      // are one unit with it, and are not read as headings of their own.
      start = commentStart(passage.markdown, start, block[0]);
      while (out.length > 0 && out.at(-1)!.start >= start) out.pop();
    }
    const quote = passage.markdown.slice(start, end);
    const text = block || /(?:^|\n)>/.test(s.text) ? quote : s.text;
    out.push({ ...s, text, start, end, quote, ...(block ? { codeOf: block[2] } : {}) });
  }
  return out;
}

/**
 * Where a callout's text stands in its page. Search reads a callout (`:::warning`, `!!! note`)
 * as a blockquote naming its kind ("> **Warning**\n>\n> Do not use…", `docsText`); the page
 * has it as written, so the unit is found by its words alone, without the quote marks and the
 * label. Before, a callout was never found in its page and never answered ("Can I register a
 * GitHub App instead of an OAuth app?" is answered only by a warning).
 */
function inCallout(markdown: string, text: string): [number, number] | null {
  if (!/(?:^|\n)>/.test(text)) return null;
  const body = text.replace(/^[> \t]*/gm, "").replace(/^\*\*[^*\n]+\*\*\s*/, "").trim();
  return body.length > 0 ? findLoosely(markdown, body) : null;
}

/** Where the comment lines (`#`, `//`) right above the line at `start` begin, within a block. */
function commentStart(markdown: string, start: number, blockStart: number): number {
  let at = markdown.lastIndexOf("\n", start - 1) + 1;
  while (at > blockStart) {
    const previous = markdown.lastIndexOf("\n", at - 2) + 1;
    if (previous <= blockStart || !/^[ \t]*(?:#|\/\/)/.test(markdown.slice(previous, at))) break;
    at = previous;
  }
  return Math.min(at, start);
}

/** A page's fenced code blocks (start, end, language), remembered for the last pages asked. */
const codeBlocks: (markdown: string) => [number, number, string][] = boundedMemo(
  (markdown) =>
    splitSentences(markdown).filter((s) => s.kind === "code").map((s) => [
      s.start,
      s.end,
      /^ {0,3}(?:`{3,}|~{3,})\s*([\w+#.-]*)/.exec(s.text)?.[1] ?? "",
    ]),
  16,
  Infinity,
);

/**
 * Chooses the sentences that best answer the question: each scores the share of the
 * question's content words it holds, each word weighted by how rare it is among the
 * retrieved sentences, plus a prior for the passage's rank. The best one always goes in, then
 * the best sentence of each of the top pages, then others that score at least 60% of the best
 * and add a passage or a word of the question. Tuned on SQuAD (docs/answers.md).
 */
export function pickSentences(
  question: Question,
  passages: Passage[],
): {
  picks: Pick[];
  /** The passage of the best unit (the answer shows its section first, in page order). */
  bestPassage?: Passage;
  coverage: number;
  /** Search ranked the best sentence's passage first (`agreed`). */
  agreed: boolean;
  evidence: SentenceEvidence;
} {
  const qTerms = question.asked;
  if (qTerms.length === 0 || passages.length === 0) {
    return { picks: [], coverage: 0, agreed: false, evidence: noEvidence(qTerms) };
  }
  const candidates = candidatesOf(question, passages);
  if (candidates.length === 0) {
    return { picks: [], coverage: 0, agreed: false, evidence: noEvidence(qTerms) };
  }
  const { idf, covered, scored } = scoreCandidates(qTerms, candidates);
  const best = scored[0]!;
  const { chosen, addresses } = chooseSentences(question, best, scored, passages);
  const picks = withContinuations(
    chosen.map((c) => ({ ...toPick(c), terms: c.terms })),
    question,
    best.defines || best.onNamedPage || best.named ? question.topic : null,
    question.wants.code,
  );
  // What the answer and the best sentence of each of the top pages hold together: how much of
  // the question the retrieved passages reach, whether or not the answer shows those pages (a
  // documentation answer keeps to one section).
  const union = new Set([
    ...picks.flatMap((c) => [...c.terms]),
    ...(sectioned(best.passage) ? topPageTerms(scored, passages, best, addresses) : []),
  ]);
  return {
    picks: namedByHeading(
      question,
      inPageOrder(
        wholeShape(picks.map(({ terms, ...pick }) => ({ ...pick, coverage: covered(terms) }))),
      ),
    ),
    bestPassage: best.passage,
    coverage: covered(union),
    agreed: agreed(question, best, passages),
    evidence: evidenceOf(question, best, scored, { idf, covered, union }),
  };
}

/**
 * The units an answer shows from one section after its first, in the order the page has them;
 * the sections in the order their best unit was picked. The best unit opens the answer, unless
 * it refers back ("This can be used…", "It also…", `REFERS_BACK`) to what the page says before
 * it: then its section's units all go in page order. Picked by score, "This can be used to
 * prevent situations such as flapping alerts" opened an answer before the sentence it refers to
 * ("There is also an optional `keep_firing_for` clause…"), and "This allows for…" came before
 * "The NATS server supports running as a Windows service." A section's units keep their place
 * among the other sections', so the first citation stays in the best section.
 */
function inPageOrder(picks: Pick[]): Pick[] {
  // A sentence announcing what follows ("…one of these status codes:") stays right before it,
  // and items shown one after the other stay one list.
  const runs: Pick[][] = [];
  for (const [i, p] of picks.entries()) {
    const previous = picks[i - 1];
    const joined = previous !== undefined &&
      sectionKey(previous.passage) === sectionKey(p.passage) &&
      (/:$/.test(previous.plain) || (previous.kind === "item" && p.kind === "item"));
    if (joined) runs.at(-1)!.push(p);
    else runs.push([p]);
  }
  const sections = [...new Set(runs.map((r) => sectionKey(r[0]!.passage)))];
  const byPage = (a: Pick[], b: Pick[]) => a[0]!.start - b[0]!.start;
  return sections.flatMap((key, i) => {
    const own = runs.filter((r) => sectionKey(r[0]!.passage) === key);
    const [first, ...rest] = own;
    if (i > 0 || REFERS_BACK.test(first![0]!.plain)) return own.sort(byPage).flat();
    return [first!, ...rest.sort(byPage)].flat();
  });
}

/** A sentence that opens by referring to what comes before it. */
const REFERS_BACK =
  /^(?:This|These|That|Those|It|Its|They|Their|Such|In (?:this|that|such a) case|Otherwise)\b/;

/** How many of the question's words the best sentence holds (its heading's too) to agree. */
const AGREED_WORDS = 2;

/**
 * Whether search and the picker agree on where the answer is: the best sentence stands in the
 * passage search ranked first and holds two of the question's words (`AGREED_WORDS`), and
 * every name the question holds ("RabbitMQ", "OIDC") is in the passages. Such an answer is
 * shown even when it holds few of the question's words: an operator's question carries its
 * own story ("journald already stamps each line, so … How do we drop them?"), whose words no
 * page has, and the section search ranks first answers it ("If `-T false` then log entries
 * are not timestamped"). A name no passage holds is what the question is about and the wiki
 * is not (a product it does not document); one shared word is a coincidence ("the company's
 * head office" and a sentence on the forge's permissions).
 */
function agreed(question: Question, best: Scored, passages: Passage[]): boolean {
  if (best.rank !== 0) return false;
  if (question.asked.filter((t) => best.terms.has(t)).length < AGREED_WORDS) return false;
  const text = passages.map((p) => `${p.title} ${p.section ?? ""} ${p.text}`).join(" ")
    .toLowerCase();
  return question.names.every((n) => text.includes(n));
}

/** The evidence of a question no sentence answers. */
function noEvidence(qTerms: string[]): SentenceEvidence {
  return {
    best: 0,
    passage: 0,
    union: 0,
    bigrams: 0,
    rarest: false,
    typeMatch: 0,
    terms: qTerms.length,
    specific: 0,
    missing: qTerms.length,
    bestRank: 8,
    topSentence: 0,
  };
}

/**
 * The sentences of the retrieved passages that may answer the question, each once, with the
 * words it holds and its bonuses; only the named page's when a page's title is the question's
 * topic.
 */
function candidatesOf(question: Question, passages: Passage[]): Candidate[] {
  let candidates = passages.flatMap((passage, rank) => candidatesIn(question, passage, rank));
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
function candidatesIn(question: Question, passage: Passage, rank: number): Candidate[] {
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
  const namedBy = (name !== null && name.every((w) => question.names.includes(w)) &&
    asksUnder(question, passage)) ||
    (identifier !== null && holdsInOrder([...question.terms.keys()], identifier));
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
      const terms = new Set([
        ...withCompounds(question, plainText({ ...s, text: withoutSyntaxExamples(s.text) })),
        ...heading,
        ...(s.kind === "row" ? columnTerms(s.text, passage.markdown, s.start) : []),
      ]);
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
      };
    },
  ).filter((c) => c.plain.length >= 15 && (topic === null || topic.some((t) => c.terms.has(t))));
}

/**
 * Scores the candidates, best first: the rarity-weighted share of the question's words each
 * holds (`covered`, with each word's weight in `idf`), plus the rank prior and its bonuses.
 */
function scoreCandidates(qTerms: string[], candidates: Candidate[]) {
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
  // A section named after a name the question holds ("Cursor") answers it.
  const byName = scored.find((c) => c.namedBy);
  if (byName && Deno.env.get("DBGN")) {
    console.log(
      "BYNAME",
      byName.coverage.toFixed(2),
      "best",
      scored[0]!.coverage.toFixed(2),
      scored[0]!.score.toFixed(2),
      byName.score.toFixed(2),
      byName.passage.section,
      "|",
      scored[0]!.passage.section,
    );
  }
  if (byName) scored = [byName, ...scored.filter((c) => c !== byName)];
  return { idf, covered, scored };
}

/**
 * The sentences of the answer, the best first (`oneSection` on a page of sections, else
 * `otherPages`), and whether a sentence's words address the question (`addresses`).
 */
function chooseSentences(question: Question, best: Scored, scored: Scored[], passages: Passage[]) {
  const qTerms = question.asked;
  const code = question.wants.code;
  const number = question.wants.amount;
  const chosen = [best];
  // When the best sentence holds every word of the question and stands on the best-ranked
  // page (word overlap and retrieval agree), a sentence of another page addresses the
  // question only if it holds two of its words (or the only one): "Open Cline's MCP settings"
  // shares just "open" with "Which port do I open?", answered by "The service listens on port
  // 8000: open http://localhost:8000." Otherwise another page may hold the answer, and the
  // retrieval ranking knows better than word overlap (SQuAD).
  const settled = qTerms.every((t) => best.terms.has(t)) &&
    best.passage.page === passages[0]!.page;
  const addresses = (terms: Set<string>) =>
    !settled || qTerms.filter((t) => terms.has(t)).length >= Math.min(2, qTerms.length);
  const amountFound = number && holdsNumber(best.plain);
  const have = new Set(best.terms);
  const add = (c: Scored) => {
    chosen.push(c);
    c.terms.forEach((t) => have.add(t));
  };
  if (sectioned(best.passage)) {
    oneSection(best, scored, { add, chosen, have, qTerms, code, number });
    otherPart(question, best, scored, passages, { add, chosen, have });
  } else {
    otherPages(best, scored, passages, { add, chosen, have, addresses, amountFound, qTerms });
  }
  return { chosen, addresses };
}

/** What the verdict reads of the picker's work (`SentenceEvidence`). */
function evidenceOf(
  question: Question,
  best: Scored,
  scored: Scored[],
  { idf, covered, union }: {
    idf: Map<string, number>;
    covered: (terms: Set<string>) => number;
    union: Set<string>;
  },
): SentenceEvidence {
  const qTerms = question.asked;
  const passageTerms = withCompounds(
    question,
    `${best.passage.title} ${best.passage.section ?? ""} ${best.passage.text}`,
  );
  const rarest = [...idf].sort((a, b) => b[1] - a[1])[0]![0];
  const titleTerms = new Set(contentTerms(best.passage.title).keys());
  const own = qTerms.filter((t) => !titleTerms.has(t));
  const ownTotal = own.reduce((sum, t) => sum + idf.get(t)!, 0);
  const specific = ownTotal === 0
    ? best.coverage
    : own.reduce((sum, t) => sum + (best.terms.has(t) ? idf.get(t)! : 0), 0) / ownTotal;
  return {
    best: best.coverage,
    passage: covered(passageTerms),
    union: covered(union),
    bigrams: bigramShare(qTerms, best.plain),
    rarest: best.terms.has(rarest),
    typeMatch: typeMatch(question, best.plain),
    terms: qTerms.length,
    specific,
    missing: qTerms.filter((t) => !best.terms.has(t)).length,
    bestRank: best.rank,
    topSentence: Math.max(0, ...scored.filter((c) => c.rank === 0).map((c) => c.coverage)),
  };
}

/** A sentence that may answer the question, before it is scored. */
type Candidate = Omit<Scored, "coverage" | "score">;

type Scored = {
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
  coverage: number;
  score: number;
};

/**
 * Whether a passage's page is documentation with sections (more than one heading): its answer
 * comes from one section (`oneSection`). A page of one heading (a SQuAD paragraph, a note) is
 * one section already, and the best-ranked other pages may hold the answer (`otherPages`).
 */
export function sectioned(passage: Passage): boolean {
  return (passage.markdown.match(/^ {0,3}#{1,6}\s/gm) ?? []).length >= 2;
}

/**
 * Whether a passage's page has exactly one heading, as SQuAD's paragraphs do (a title and its
 * text): its lines are not read as a list's items by the rules for lists, which a line break
 * before "3) is usually known as ozone" would otherwise start. A page of sections, or one without
 * a heading (its title in front matter), is documentation.
 */
function oneHeading(passage: Passage): boolean {
  return (passage.markdown.match(/^ {0,3}#{1,6}\s/gm) ?? []).length === 1;
}

/** The section a passage stands in, as a key. */
const sectionKey = (p: Passage) => `${p.pageId}\u0000${p.section ?? ""}`;

/**
 * Documentation answers from one section: the best sentence's section gives the answer (its
 * other sentences that match well and add a word of the question), and another section joins
 * only when the best one lacks what is asked (an amount, a command) and a sentence there holds
 * it. Sentences of other sections that merely share words with the question read as a second,
 * unrelated answer ("… 403, No. [1] By default, if the client does not send SNI …").
 */
function oneSection(
  best: Scored,
  scored: Scored[],
  ctx: {
    add: (c: Scored) => void;
    chosen: Scored[];
    have: Set<string>;
    qTerms: string[];
    code: boolean;
    number: boolean;
  },
): void {
  const own = sectionKey(best.passage);
  const followers = scored.slice(1).filter((c) =>
    sectionKey(c.passage) === own && c.coverage > 0 && c.score >= FOLLOW * best.score
  ).slice(0, MAX_SENTENCES - 1);
  const have = new Set([...ctx.have, ...followers.flatMap((c) => [...c.terms])]);
  // Another section that holds a word of the question the section lacks ("the first does not
  // hold what is asked"), and matches as well. One such sentence keeps its place even when the
  // section's own sentences would fill the answer: "What's the default limit and which flag
  // raises it?" was answered with four comments of a configuration file, each holding "limit",
  // while the flags table's row holding the question's other words was left out.
  const others: Scored[] = [];
  for (const c of scored.slice(1)) {
    if (others.length >= 1 && 1 + followers.length + others.length >= MAX_SENTENCES - 1) break;
    // Another section's sentence without the amount asked for only shares a word ("Which
    // events: Just the push event." for "How long are usage events kept?").
    if (
      sectionKey(c.passage) === own || c.untyped || c.score < FOLLOW * best.score ||
      c.coverage < best.coverage
    ) continue;
    const adds = ctx.qTerms.some((t) => c.terms.has(t) && !have.has(t));
    const held = ctx.qTerms.filter((t) => c.terms.has(t)).length;
    if (!adds || held < Math.min(2, ctx.qTerms.length)) continue;
    others.push(c);
    c.terms.forEach((t) => have.add(t));
  }
  for (const c of [...followers.slice(0, MAX_SENTENCES - 1 - others.length), ...others]) {
    ctx.add(c);
  }
  // When search ranked another page first, its best sentence joins (search ranks pages better
  // than word overlap does).
  const top = scored.find((c) => c.rank === 0);
  if (
    top && top.passage.page !== best.passage.page && !top.untyped &&
    top.coverage >= MIN_SHARE * best.coverage
  ) {
    ctx.add(top);
  }
  const lacksAmount = ctx.number && !ctx.chosen.some((c) => holdsNumber(c.plain));
  const lacksCode = ctx.code && !ctx.chosen.some((c) => c.sentence.kind === "code");
  if (!lacksAmount && !lacksCode) return;
  const other = scored.find((c) =>
    sectionKey(c.passage) !== own && c.rank <= TOP_PAGES && c.score >= FOLLOW * best.score &&
    (lacksAmount ? holdsNumber(c.plain) : c.sentence.kind === "code")
  );
  if (other && ctx.chosen.length < MAX_SENTENCES) ctx.add(other);
}

/**
 * A question that asks for more than its answer's section holds: words of the question absent
 * from the passage (its heading and text) and from the answer, two of them held by the best
 * sentence of the best-ranked other page ("… reach a MySQL service named database?" answered
 * from a section on reaching steps by name, which never names MySQL or a database). That
 * sentence joins, when it matches at least half as well as the best.
 */
function otherPart(
  question: Question,
  best: Scored,
  scored: Scored[],
  passages: Passage[],
  ctx: { add: (c: Scored) => void; chosen: Scored[]; have: Set<string> },
): void {
  if (ctx.chosen.length >= MAX_SENTENCES) return;
  const section = withCompounds(
    question,
    `${best.passage.section ?? ""} ${best.passage.text}`,
  );
  const missing = question.asked.filter((t) => !section.has(t) && !ctx.have.has(t));
  if (missing.length === 0) return;
  const page = passages.find((p) => p.page !== best.passage.page)?.page;
  const other = scored.find((c) =>
    c.passage.page === page && !c.untyped && !ctx.chosen.includes(c) &&
    missing.filter((t) => c.terms.has(t)).length >= PART_WORDS &&
    c.coverage >= OTHER_PART * best.coverage
  );
  if (other) ctx.add(other);
}

/**
 * A page of one section: the retrieval ranking chooses pages better than word overlap does, so
 * the best-ranked pages each get their best sentence in when it matches the question well
 * enough, then others that score at least 60% of the best and add a word or a passage.
 */
function otherPages(
  best: Scored,
  scored: Scored[],
  passages: Passage[],
  ctx: {
    add: (c: Scored) => void;
    chosen: Scored[];
    have: Set<string>;
    addresses: (terms: Set<string>) => boolean;
    amountFound: boolean;
    qTerms: string[];
  },
): void {
  const { add, chosen, have, addresses, amountFound, qTerms } = ctx;
  for (const page of [...new Set(passages.map((p) => p.page))].slice(0, TOP_PAGES)) {
    if (chosen.length >= MAX_SENTENCES || chosen.some((c) => c.passage.page === page)) continue;
    const top = scored.find((c) => c.passage.page === page && addresses(c.terms));
    // When the best sentence states the amount the question asks for, another page's sentence
    // that states none only shares a word with the question ("Which events: Just the push
    // event.").
    const untyped = amountFound && !holdsNumber(top?.plain ?? "");
    if (top && top.coverage >= MIN_SHARE * best.coverage && top.coverage > 0 && !untyped) {
      add(top);
    }
  }
  // Sentences of the best sentence's own page add to it even without the amount it states.
  const followScore = (c: Scored) =>
    c.score + (c.untyped && c.passage.page === best.passage.page ? NO_NUMBER : 0);
  for (const c of scored.slice(1)) {
    if (
      chosen.length >= MAX_SENTENCES || chosen.includes(c) ||
      followScore(c) < FOLLOW * best.score ||
      c.coverage === 0
    ) {
      continue;
    }
    const addsTerms = qTerms.some((t) => c.terms.has(t) && !have.has(t));
    const newPassage = !chosen.some((p) => p.passage === c.passage);
    const sameTopic = c.passage.page === best.passage.page || addresses(c.terms);
    if ((addsTerms || newPassage) && sameTopic) add(c);
  }
}

/** The words of the best sentence of each of the best-ranked pages that address the question. */
function topPageTerms(
  scored: Scored[],
  passages: Passage[],
  best: Scored,
  addresses: (terms: Set<string>) => boolean,
): string[] {
  return [...new Set(passages.map((p) => p.page))].slice(0, TOP_PAGES).flatMap((page) => {
    const top = scored.find((c) => c.passage.page === page && addresses(c.terms));
    return top && top.coverage >= MIN_SHARE * best.coverage ? [...top.terms] : [];
  });
}

/**
 * A sentence the page left without its full stop (a setting's description, "Supported since
 * NATS server version 2.3.0") gets one in the answer; its quote stays as written.
 */
function stopped(text: string): string {
  return /[.!?:]["')\]]?$/.test(text) ? text : `${text}.`;
}

function toPick(
  c: {
    passage: Passage;
    sentence: Sentence & { quote: string; codeOf?: string };
    plain: string;
    coverage: number;
  },
): Pick {
  const { codeOf } = c.sentence;
  return {
    passage: c.passage,
    quote: c.sentence.quote,
    start: c.sentence.start,
    end: c.sentence.end,
    plain: c.plain,
    kind: codeOf === undefined ? c.sentence.kind : "code",
    shown: codeOf !== undefined
      ? `\`\`\`${codeOf}\n${c.sentence.quote}\n\`\`\``
      : c.sentence.kind === "prose"
      ? stopped(unitMarkdown(c.sentence, c.passage.markdown, c.sentence.start))
      : unitMarkdown(c.sentence, c.passage.markdown, c.sentence.start),
    coverage: c.coverage,
  };
}

/**
 * Sentences that do not stand alone bring the next unit of their passage (the sentence, list
 * item, code block or table row after them) right after them in the answer, whatever its words:
 *
 * - one ending in a colon announces what follows ("The title is taken from the first of these
 *   that exists:", "… is at:");
 * - one of fewer than four words is a heading in all but name ("Private endpoint only.");
 * - a sentence answering a question that asks how to do something ("How do I take a
 *   snapshot…?") brings the code block right after it (the request, the command);
 * - the first sentence that says what the question's topic is (a definition, or a sentence of
 *   the page or section named after it) goes on in the next one when that one holds the topic
 *   (`readsOn`, the topic's words) and neither announces its page nor ends in a colon.
 *
 * A code block of several lines follows only when the question asks for code (`asksForCode`)
 * or how to do something.
 * At most `MAX_SENTENCES` in all. A sentence ending in a colon whose continuation does not
 * follow it (a code block the question does not ask for, the end of the passage, no room left)
 * is left out unless it is the best one (it may hold the answer itself): "No token is needed
 * for public wikis:" read as an answer's last words said nothing.
 */
function withContinuations(
  chosen: (Pick & { terms: Set<string> })[],
  question: Question,
  readsOn: string[] | null,
  code: boolean,
): (Pick & { terms: Set<string> })[] {
  const out: (Pick & { terms: Set<string> })[] = [];
  // Overlapping windows of a long section hold the same sentence at the same page offset.
  const key = (p: Pick) => `${p.passage.pageId}:${p.start}`;
  const seen = new Set<string>();
  /** Each announcing sentence's continuation, by key. */
  const continuation = new Map<string, string>();
  const push = (p: Pick & { terms: Set<string> }) => {
    // The same words twice (a line two examples of a page share) are shown once.
    if (seen.has(key(p)) || out.some((o) => o.quote.trim() === p.quote.trim())) return;
    seen.add(key(p));
    out.push(p);
  };
  for (const [i, c] of chosen.entries()) {
    push(c);
    const other = otherCase(c);
    if (other) {
      const terms = new Set([
        ...withCompounds(question, other.plain),
        ...subsectionTerms(c.passage),
      ]);
      push({
        ...toPick({ passage: c.passage, sentence: other, plain: other.plain, coverage: 0 }),
        terms,
      });
      continue;
    }
    const announces = /:$/.test(c.plain) || wordCount(c.plain) < 4;
    const howTo = question.wants.howTo && c.kind === "prose" && !announces;
    if (!announces && !howTo && !(i === 0 && readsOn)) continue;
    const next = locatedSentences(c.passage).find((s) => s.start >= c.end);
    if (!next) continue;
    // A question asking how to do something is shown how by the code block right after a
    // sentence that answers it (the request, the command, the configuration).
    const example = howTo && next.kind === "code";
    if (!announces && !example && !(i === 0 && readsOn)) continue;
    const plain = plainText(next);
    // A code block of several lines answers only a question about code (`asksForCode`); one
    // line (a command, an address) reads as a sentence.
    if (next.kind === "code" && !code && !example && plain.includes("; ")) continue;
    const terms = new Set([...withCompounds(question, plain), ...subsectionTerms(c.passage)]);
    // Reading on stays on the topic, and stops at a sentence that announces what follows.
    if (
      !announces && !example &&
      (/:$/.test(plain) || announcesPage(next.text) || !readsOn!.some((t) => terms.has(t)))
    ) continue;
    // A small table announced ("There are other OCSP modes …:") follows whole, not its first row;
    // so does a short list ("… one of the following HTTP response codes:" and its three codes).
    const table = /:$/.test(c.plain) && next.kind === "row"
      ? smallTable(c.passage.markdown, next.start)
      : null;
    const list = /:$/.test(c.plain) && next.kind === "item" ? announcedList(c, next) : null;
    const follower = list
      ? { ...list, terms: new Set([...terms, ...withCompounds(question, list.plain)]) }
      : table
      ? {
        ...toPick({ passage: c.passage, sentence: next, plain, coverage: 0 }),
        quote: c.passage.markdown.slice(table.start, table.end),
        start: table.start,
        end: table.end,
        plain: table.plain,
        kind: "section" as const,
        shown: table.shown,
        terms: new Set([...terms, ...withCompounds(question, table.plain)]),
      }
      : { ...toPick({ passage: c.passage, sentence: next, plain, coverage: 0 }), terms };
    continuation.set(key(c), key(follower));
    push(follower);
  }
  // A row of a table or an item of a list shown whole is not shown again.
  const tables: Pick[] = out.filter((p) => p.kind === "section" || p.kind === "list");
  const inTable = (p: Pick) =>
    !tables.includes(p) &&
    tables.some((t) =>
      t.passage.pageId === p.passage.pageId && p.start >= t.start && p.end <= t.end
    );
  const fitted = out.filter((p) => !inTable(p)).slice(0, MAX_SENTENCES);
  // An announcement stays only right before its own continuation (or when it is the best).
  const followed = (p: Pick, i: number) =>
    fitted[i + 1] !== undefined && continuation.get(key(p)) === key(fitted[i + 1]!);
  return fitted.filter((p, i) => i === 0 || !/:$/.test(p.plain) || followed(p, i));
}

/**
 * A sentence that opens on a condition about the one before it ("If this is not possible, …",
 * "If omitted, …", "Otherwise, …", "In this case, …") says what happens in the other case, and
 * reads only after it.
 */
const OTHER_CASE =
  /^(?:If (?:this|that|not|so|omitted|unset|empty|none)\b|Otherwise\b|In (?:this|that|either|such a) case\b)/;

/**
 * The sentence right after a prose pick, in its paragraph, that opens on a condition about it
 * (`OTHER_CASE`): it follows the pick, whatever its words. "`RequiredDuring…` requires a new
 * version's pods to be on a separate node than the previous versions. If this is not possible,
 * the new version's pods will not be scheduled." was answered without its second sentence, the
 * one that says what the question asked ("what happens when there's no separate node?").
 */
function otherCase(c: Pick): (Sentence & { quote: string; plain: string }) | null {
  if (c.kind !== "prose") return null;
  const next = locatedSentences(c.passage).find((s) => s.start >= c.end);
  if (!next || next.kind !== "prose" || next.codeOf !== undefined) return null;
  if (/\n[ \t]*\n/.test(c.passage.markdown.slice(c.end, next.start))) return null;
  const plain = plainText(next);
  return OTHER_CASE.test(plain) ? { ...next, plain } : null;
}

/** Share of the question's adjacent content-word pairs that stand within 3 words in `text`. */
function bigramShare(qTerms: string[], text: string): number {
  if (qTerms.length < 2) return 0;
  const words = [...contentTerms(text).keys()];
  const at = new Map<string, number[]>();
  words.forEach((w, i) => at.set(w, [...(at.get(w) ?? []), i]));
  let hit = 0;
  for (let i = 0; i + 1 < qTerms.length; i++) {
    const a = at.get(qTerms[i]!) ?? [];
    const b = at.get(qTerms[i + 1]!) ?? [];
    if (a.some((x) => b.some((y) => Math.abs(x - y) <= 3))) hit++;
  }
  return hit / (qTerms.length - 1);
}

/** 1 when the question asks for a number or a date and the sentence holds one, -1 when not. */
function typeMatch(question: Question, sentence: string): number {
  if (!question.wants.numberOrDate) return 0;
  return /\d/.test(sentence) ? 1 : -1;
}

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
function subsectionTerms(passage: Passage): string[] {
  const below = (passage.section ?? "").split(" > ").slice(1).join(" ");
  return below ? [...contentTerms(below).keys()] : [];
}

/**
 * A step of a procedure is not an answer alone: when the best unit is an item of a numbered
 * list (or of a bulleted list that is all its section holds), the answer gives the whole list (every step, one quote from its first item to its last,
 * rendered as a list), and drops the other picks from that list. "What do I do when a node is
 * down?" answered with step 1 of a three-step runbook.
 */
function wholeList(picks: Pick[]): Pick[] {
  const first = picks[0];
  if (!first || first.kind !== "item") return picks;
  const units = locatedSentences(first.passage);
  const at = units.findIndex((u) => u.start === first.start);
  if (at < 0) return picks;
  let from = at;
  while (from > 0 && units[from - 1]!.kind === "item") from--;
  let to = at;
  while (to + 1 < units.length && units[to + 1]!.kind === "item") to++;
  const items = units.slice(from, to + 1);
  // A numbered list is a procedure; a bulleted one is when it is all its section says.
  const whole = items.length === units.length;
  const steps = items.filter((u) => LIST_MARKER.test(u.text)).length;
  if (steps < 2 || !(/^\s*\d/.test(items[0]!.text) || whole)) return picks;
  const list = listPick(first, items);
  const inList = (p: Pick) =>
    p.passage.pageId === first.passage.pageId && p.start >= list.start && p.end <= list.end;
  return [list, ...picks.slice(1).filter((p) => !inList(p))];
}

/** A list item's marker: a number (`1.`, `2)`) or a bullet. */
const LIST_MARKER = /^\s*(\d{1,9}[.)]|[-*+])\s/;
/** A list a sentence announces follows whole when it has at most this many items… */
const ANNOUNCED_LIST_ITEMS = 8;
/** …of at most this many words in all. */
const ANNOUNCED_LIST_WORDS = 120;

/**
 * The list a sentence ending in a colon announces, whole, from `next` (its first item) to its
 * last item, when it is short; else null (the first item follows alone, as any unit would).
 */
function announcedList(c: Pick, next: Sentence & { quote: string }): Pick | null {
  const units = locatedSentences(c.passage);
  const at = units.findIndex((u) => u.start === next.start);
  let to = at;
  while (to + 1 < units.length && units[to + 1]!.kind === "item") to++;
  const items = units.slice(at, to + 1);
  const marked = items.filter((u) => LIST_MARKER.test(u.text)).length;
  const words = items.reduce((n, u) => n + wordCount(plainText(u)), 0);
  if (at < 0 || marked < 2 || marked > ANNOUNCED_LIST_ITEMS || words > ANNOUNCED_LIST_WORDS) {
    return null;
  }
  return listPick({ ...c, coverage: 0 }, items);
}

/** One pick of `items` (units of `base`'s passage, in order): one quote, shown as a list. */
function listPick(base: Pick, items: (Sentence & { quote: string })[]): Pick {
  const lines: string[] = [];
  for (const u of items) {
    const marker = LIST_MARKER.exec(u.text)?.[1]?.replace(/[*+]/, "-");
    if (marker) lines.push(`${marker} ${withCodeSpans(u)}`);
    else if (lines.length > 0) lines[lines.length - 1] += ` ${withCodeSpans(u)}`;
  }
  return { ...spanPick(base, items, lines.join(" "), lines.join("\n")), kind: "list" };
}

/** `base` made the span of its passage from `units[0]` to the last unit: one quote, shown so. */
function spanPick(base: Pick, units: Sentence[], plain: string, shown: string): Pick {
  const start = units[0]!.start;
  const end = units.at(-1)!.end;
  return { ...base, quote: base.passage.markdown.slice(start, end), start, end, plain, shown };
}

/**
 * The name a section's own heading gives it, as the answer shows it, when that heading is a
 * name: an identifier (`LOG_STORE`, `scrape_interval`), or a heading that opens with code
 * ("`NATS_STARTUP_DELAY` environment variable", "`promtool check metrics`"). With the names it
 * holds (the code spans' text, or the identifier). Null for another heading, and for the page's
 * own (its title: SQuAD's pages have no other).
 */
export function headingLabel(section: string | null): { label: string; names: string[] } | null {
  const parts = (section ?? "").split(" > ");
  if (parts.length < 2) return null;
  const own = parts.at(-1)!.trim();
  const named = nameOfHeading(own);
  // A part under a name, headed by a word or two ("`promtool check metrics` > Flags",
  // "`<scrape_config>` > Example"), is that name's: the answer is led by both. A heading in
  // capitals is a name of its own (`BACKEND`), not a part.
  if (named || parts.length < 3 || !/^\p{Lu}\p{Ll}+(?: \p{Ll}+)?$/u.test(own)) return named;
  const parent = nameOfHeading(parts.at(-2)!.trim());
  return parent ? { label: `${parent.label}, ${own}`, names: parent.names } : null;
}

/** A heading that is a name (see `headingLabel`), as the answer shows it, or null. */
function nameOfHeading(own: string): { label: string; names: string[] } | null {
  if (isIdentifier(own)) {
    const name = own.replace(/`/g, "");
    return { label: `\`${name}\``, names: [name] };
  }
  if (!/^`[^`]+`/.test(own)) return null;
  // A link in the heading leaves its text (`cli exec` [#4103](…) → `cli exec` #4103).
  const label = own.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
  // The name without the marks around it (`<exemplars>`, `rate()`, `--agent`).
  const names = [...own.matchAll(/`([^`]+)`/g)]
    .map((m) => m[1]!.replace(/^\W+|\W+$/g, "")).filter(Boolean);
  return names.length > 0 ? { label, names } : null;
}

/** Where a unit's markdown opens with a block (fenced code, a table, a list), not a sentence. */
const OPENS_BLOCK = /^(?: {0,3}(?:`{3,}|~{3,})|\||\s*(?:[-*+]|\d{1,9}[.)])\s)/;

/**
 * In reference documentation the name of a setting, a command or a function is its section's
 * heading, and the section's sentences never repeat it: "How do we give the server longer to
 * start on Windows?" was answered from the `NATS_STARTUP_DELAY` section with "By default
 * `nats-server` allows itself up to 10 seconds to send this signal", which does not say what
 * to set. The first unit of each section an answer shows is led by that section's name
 * (`headingLabel`) when neither the unit nor the question holds it: "`NATS_STARTUP_DELAY`
 * environment variable — This adjustment can be necessary…"; a unit opening with a block gets
 * the name on a line of its own. The quote stays the unit as the page has it (the citation's
 * section names the heading).
 */
function namedByHeading(question: Question, picks: Pick[]): Pick[] {
  const asked = question.text.toLowerCase();
  const seen = new Set<string>();
  return picks.map((p) => {
    const key = sectionKey(p.passage);
    if (seen.has(key)) return p;
    seen.add(key);
    const heading = headingLabel(p.passage.section);
    if (!heading) return p;
    const shown = p.shown.toLowerCase();
    const held = heading.names.some((n) =>
      shown.includes(n.toLowerCase()) || asked.includes(n.toLowerCase())
    );
    // An item shown alone reads as a sentence, beside another as a list: it is left as it is.
    if (held || p.kind === "item") return p;
    const { label } = heading;
    // A table row read with its header ("`--lint` — Linting checks…") opens with a name too.
    const opensRow = p.kind === "section" && /^[^\n—]{1,60} — /.test(p.shown);
    if (OPENS_BLOCK.test(p.shown) || opensRow || (p.kind !== "prose" && p.kind !== "section")) {
      return { ...p, shown: `${label}:\n\n${p.shown}`, plain: `${label}: ${p.plain}` };
    }
    return { ...p, shown: `${label} — ${p.shown}`, plain: `${label} — ${p.plain}` };
  });
}

/** A whole section is the answer when its prose holds at most this many words… */
const SHORT_SECTION_WORDS = 120;
/** …in at most this many units (sentences, items, rows, code blocks)… */
const SHORT_SECTION_UNITS = 8;
/** …and its code blocks at most this many lines. */
const SHORT_SECTION_CODE_LINES = 30;

/**
 * A short section whole (`wholeSection`), else a short callout whole (`wholeCallout`), else a
 * whole list (`wholeList`), else the picks.
 */
function wholeShape(picks: Pick[]): Pick[] {
  const items = wholeItems(picks);
  return wholeSection(items) ?? wholeCallout(items) ??
    wholeParagraphs(withListLead(wholeList(items)));
}

/** A sentence is shown with its whole paragraph when that has at most this many sentences… */
const PARAGRAPH_SENTENCES = 4;
/** …and this many words. */
const PARAGRAPH_WORDS = 100;

/**
 * A sentence of documentation is shown with the rest of its paragraph, when that is short: the
 * author wrote the paragraph as a unit, and its sentences lean on each other ("It also exposes a
 * web UI on port 9095…" after "Use the `--agent` flag…"; a default stated in the sentence after
 * the one that matched the question's words). One quote from the paragraph's first sentence to
 * its last; the other picks from it go. Pages of one heading (SQuAD's paragraphs) are left as
 * they are: there the paragraph is the page.
 */
function wholeParagraphs(picks: Pick[]): Pick[] {
  return widened(
    picks,
    (p) => p.kind === "prose" && !oneHeading(p.passage) ? paragraphAround(p) : p,
  );
}

/** The short paragraph a prose pick stands in, as one pick (the pick itself when it is alone). */
function paragraphAround(p: Pick): Pick {
  const { markdown } = p.passage;
  const units = locatedSentences(p.passage);
  const at = units.findIndex((u) => u.start === p.start);
  if (at < 0) return p;
  // A blank line parts paragraphs, and so does a quote's line of `>` alone.
  const joined = (a: { end: number }, b: { start: number }) =>
    !/\n[ \t]*(?:>[ \t]*)*\n/.test(markdown.slice(a.end, b.start));
  let from = at;
  while (from > 0 && units[from - 1]!.kind === "prose" && joined(units[from - 1]!, units[from]!)) {
    from--;
  }
  let to = at;
  // A sentence announcing what follows the paragraph ("Parameters:") is left out with it.
  while (
    to + 1 < units.length && units[to + 1]!.kind === "prose" &&
    joined(units[to]!, units[to + 1]!) && !/:$/.test(plainText(units[to + 1]!))
  ) to++;
  const parts = units.slice(from, to + 1);
  if (parts.length < 2 || parts.length > PARAGRAPH_SENTENCES) return p;
  if (parts.reduce((n, u) => n + wordCount(plainText(u)), 0) > PARAGRAPH_WORDS) return p;
  const plain = parts.map((u) => plainText(u)).join(" ");
  return spanPick(
    p,
    parts,
    plain,
    parts.map((u) => stopped(unitMarkdown(u, markdown, u.start))).join(" "),
  );
}

/**
 * A list item answering alone is read with the sentence that leads its list, as a table row is
 * with its header: "Server-side HTTPS and basic authentication" says nothing of the question
 * "Is it covered by the stability promise?" without "Things considered unstable for 3.x:". When
 * the first unit of the answer is an item of a list (two items or more) and the unit right
 * before the list is a sentence ending in a colon, that sentence comes first. An item further
 * down the answer comes with its lead and the rest of its list when that list is short
 * (`announcedList`): "How do I add a user with a password?" ended with "And add permissions.",
 * the last of three items under "You can use:" (username/password, nkeys, and add permissions).
 */
function withListLead(picks: Pick[]): Pick[] {
  const out: Pick[] = [];
  const has = (q: Pick) =>
    out.some((o) => o.passage.pageId === q.passage.pageId && q.start >= o.start && q.end <= o.end);
  for (const [i, p] of picks.entries()) {
    const led = p.kind === "item" && !oneHeading(p.passage) ? listLeadOf(p) : null;
    if (
      !led || picks.some((o) => o.passage.pageId === p.passage.pageId && o.start === led.lead.start)
    ) {
      if (!has(p)) out.push(p);
      continue;
    }
    const lead = toPick({
      passage: p.passage,
      sentence: led.lead,
      plain: plainText(led.lead),
      coverage: 0,
    });
    const list = i === 0 ? null : announcedList(lead, led.first);
    if (i > 0 && !list) {
      if (!has(p)) out.push(p);
      continue;
    }
    for (const q of [lead, list ?? p]) if (!has(q)) out.push(q);
  }
  return out;
}

/**
 * The sentence leading the list a pick is an item of, and the list's first item: when the list
 * has two marked items or more and the unit before it is a short sentence ending in a colon.
 */
function listLeadOf(p: Pick): { lead: LocatedUnit; first: LocatedUnit } | null {
  const units = locatedSentences(p.passage);
  let at = units.findIndex((u) => u.start === p.start);
  if (at < 0) return null;
  while (at > 0 && units[at - 1]!.kind === "item") at--;
  let items = 0;
  for (let i = at; i < units.length && units[i]!.kind === "item"; i++) {
    if (ITEM_MARKER.test(units[i]!.text)) items++;
  }
  if (items < 2) return null;
  const lead = units[at - 1];
  // A header, not a paragraph of its own: a long sentence ending in a colon says more than
  // what the list is ("With an account token, the read routes above exist… and you can write:").
  if (!lead || lead.kind !== "prose" || !/:$/.test(plainText(lead))) return null;
  if (wordCount(plainText(lead)) > LEAD_WORDS) return null;
  return { lead, first: units[at]! };
}

/** The sentence leading a list is its header when it has at most this many words. */
const LEAD_WORDS = 12;

/** A list item's marker ("- ", "* ", "1. "). */
const ITEM_MARKER = /^\s*(?:[-*+]|\d{1,9}[.)])\s/;

/**
 * A list item of several sentences is one unit: a sentence of it is shown with the others, from
 * its marker on. Only in a list (two items or more): a paragraph whose line happens to begin with
 * "2. " (a formula cut by a line break, in SQuAD's Oxygen) is no list. "* Variables MUST be used to be recognized as such. The config parser will
 * distinguish `unknown field` from variable…" was answered with its second sentence alone, for
 * a question on why an unused variable is an unknown field.
 */
function wholeItems(picks: Pick[]): Pick[] {
  return widened(picks, (p) => p.kind === "item" && !oneHeading(p.passage) ? itemAround(p) : p);
}

/** Each pick as `widen` makes it, leaving out those a wider one before them already holds. */
function widened(picks: Pick[], widen: (p: Pick) => Pick): Pick[] {
  const within = (a: Pick, b: Pick) =>
    a.passage.pageId === b.passage.pageId && a.start >= b.start && a.end <= b.end;
  const out: Pick[] = [];
  for (const p of picks) {
    const whole = widen(p);
    if (out.some((o) => within(whole, o))) continue;
    // A widened pick holding picks before it takes the place of the first and the others go:
    // "Parameters:" widened to its paragraph held the paragraph's first two sentences, picked
    // before it, and the answer showed them twice.
    const at = out.findIndex((o) => within(o, whole));
    if (at < 0) {
      out.push(whole);
      continue;
    }
    out[at] = whole;
    for (let i = out.length - 1; i > at; i--) if (within(out[i]!, whole)) out.splice(i, 1);
  }
  return out;
}

/** The whole list item a pick's sentence stands in (the pick itself when it is the whole). */
function itemAround(p: Pick): Pick {
  const units = locatedSentences(p.passage);
  const at = units.findIndex((u) => u.start === p.start);
  if (at < 0) return p;
  let from = at;
  while (from > 0 && !ITEM_MARKER.test(units[from]!.text) && units[from - 1]!.kind === "item") {
    from--;
  }
  let to = at;
  while (
    to + 1 < units.length && units[to + 1]!.kind === "item" &&
    !ITEM_MARKER.test(units[to + 1]!.text)
  ) to++;
  if (from === to) return p;
  const listed = units[from - 1]?.kind === "item" || units[to + 1]?.kind === "item";
  if (!listed) return p;
  const parts = units.slice(from, to + 1);
  const plain = parts.map((u) => plainText(u)).join(" ");
  const marker = /^\s*(\d{1,9}[.)])\s/.exec(parts[0]!.text)?.[1] ?? "-";
  return spanPick(p, parts, plain, `${marker} ${parts.map((u) => withCodeSpans(u)).join(" ")}`);
}

/**
 * A callout (a note, a tip, a warning: `calloutAround`) is one unit of the page: when the best
 * unit stands in a short one, the answer is all of it, and the other picks from it go. A warning
 * says what fails and what to do about it in two sentences: "`nats account restore` will fail if
 * a stream with the same name already exists." was answered without "You must remove the
 * existing stream before restoring from backup."
 */
function wholeCallout(picks: Pick[]): Pick[] | null {
  const first = picks[0];
  if (!first || first.kind === "list" || first.kind === "section") return null;
  const body = calloutAround(first.passage.markdown, first.start);
  if (!body) return null;
  const units = locatedSentences(first.passage)
    .filter((u) => u.start >= body[0] && u.end <= body[1]);
  const whole = shortWhole(first, units);
  if (!whole) return null;
  const inCallout = (p: Pick) =>
    p.passage.pageId === first.passage.pageId && p.start >= body[0] && p.end <= body[1];
  return [whole, ...picks.slice(1).filter((p) => !inCallout(p))];
}

/**
 * A short section of documentation is its answer whole: when the best unit stands in a section
 * (of a page with sections) of a few units, the answer is every unit of that section in page
 * order, one quote from its first unit to its last, and the other picks from it go. A setting's
 * section says its name and default in a list and what it does in a sentence: "How often does the
 * server retry fetching the pipeline configuration?" matched the sentence and answered without
 * "Default: 3"; "How do I put Woodpecker behind Caddy?" quoted the section's first sentence and
 * left out the configuration it announces. Null when the section is long, or the passage is a
 * window of one (it does not run from a heading to the next), or the page's lead.
 */
function wholeSection(picks: Pick[]): Pick[] | null {
  const first = picks[0];
  const section = first ? sectionOf(first) : null;
  if (!first || !section) return null;
  const inSection = (p: Pick) =>
    p.passage.pageId === first.passage.pageId && p.start >= section.start && p.end <= section.end;
  const rest = picks.slice(1).filter((p) => !inSection(p));
  // Another section's unit that joined (the part the first section lacks) is its section whole
  // too, when that is short: "Configures the HTTP listener…" without its "Default: `:8000`".
  const out = [section];
  for (const p of rest.map((p) => sectionOf(p) ?? p)) {
    const held = out.some((o) =>
      o.passage.pageId === p.passage.pageId && p.start >= o.start && p.end <= o.end
    );
    if (!held) out.push(p);
  }
  return out;
}

/** A pick's short section whole (see `wholeSection`), or null. */
function sectionOf(first: Pick): Pick | null {
  if (first.kind === "list" || !sectioned(first.passage)) return null;
  const { passage } = first;
  if (passage.offset < 0) return null;
  const heading = /^ {0,3}#{1,6}\s/;
  const before = passage.markdown.slice(0, passage.offset).trimEnd();
  const after = passage.markdown.slice(passage.offset + passage.text.length).trimStart();
  // Under a heading below the page's title: a page's lead (under its `#` title, or under no
  // heading) introduces the page rather than answering.
  if (!/^ {0,3}#{2,6}\s/.test(before.slice(before.lastIndexOf("\n") + 1))) return null;
  if (after !== "" && !heading.test(after)) return null;
  // An image alone says nothing in words (its alt text is a caption, not a sentence), and a
  // sentence announcing its section answers nothing.
  // An HTML comment is no unit at all.
  const units = locatedSentences(passage).filter((u) =>
    !/^!\[[^\]]*\]\([^)]*\)$/.test(u.text) && !announcesPage(u.text) &&
    !/^<!--[\s\S]*-->$/.test(u.text.trim())
  );
  return shortWhole(first, units);
}

/**
 * `units` of the first pick's passage as one pick (one quote from the first to the last, shown
 * in their shapes), or null when they are not two or more, or not short.
 */
function shortWhole(
  first: Pick,
  units: ReturnType<typeof locatedSentences>,
): Pick | null {
  const { passage } = first;
  if (units.length < 2 || units.length > SHORT_SECTION_UNITS) return null;
  const prose = units.filter((u) => u.kind !== "code");
  const code = units.filter((u) => u.kind === "code");
  if (prose.reduce((n, u) => n + wordCount(plainText(u)), 0) > SHORT_SECTION_WORDS) return null;
  if (code.reduce((n, u) => n + u.text.split("\n").length, 0) > SHORT_SECTION_CODE_LINES) {
    return null;
  }
  const shown: { kind: Pick["kind"]; shown: string; plain: string }[] = [];
  let table: ReturnType<typeof smallTable> = null;
  for (const u of units) {
    if (table && u.start >= table.start && u.end <= table.end) continue;
    // The rows of a small table stay a table, unless the best unit is one of them: then each
    // row reads with its header ("`rejectStatusCode` — … Default: `403`."), the asked one first.
    table = u.kind === "row" && first.kind !== "row" ? smallTable(passage.markdown, u.start) : null;
    if (table) shown.push({ kind: "section", shown: table.shown, plain: table.plain });
    else {
      shown.push({
        kind: u.kind,
        shown: u.kind === "prose"
          ? stopped(unitMarkdown(u, passage.markdown, u.start))
          : unitMarkdown(u, passage.markdown, u.start),
        plain: plainText(u),
      });
    }
  }
  const start = units[0]!.start;
  const end = units.at(-1)!.end;
  const section: Pick = {
    ...first,
    quote: passage.markdown.slice(start, end),
    start,
    end,
    plain: shown.map((u) => u.plain).join(" "),
    kind: "section",
    shown: composeAnswer(shown, false),
  };
  return section;
}

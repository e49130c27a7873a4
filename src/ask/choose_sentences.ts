import type { Passage } from "./passages.ts";
import { holdsNumber } from "./sentence_kinds.ts";
import { type Question, withCompounds } from "./question.ts";
import { locatedSentences, sectioned, sectionKey } from "./located_sentences.ts";
import { NO_NUMBER, type Scored } from "./candidates.ts";
import { kindStems } from "./form_words.ts";

/** At most this many sentences make an extractive answer. */
export const MAX_SENTENCES = 4;

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
/** The lowest-ranked passage (0 is search's first) whose page joins on a tie (`oneSection`). */
const TIED_RANK = 1;

/**
 * The sentences of the answer, the best first (`oneSection` on a page of sections, else
 * `otherPages`), and whether a sentence's words address the question (`addresses`).
 */
export function chooseSentences(
  question: Question,
  best: Scored,
  scored: Scored[],
  passages: Passage[],
) {
  const qTerms = question.asked;
  const code = question.wants.code;
  const number = question.wants.amount;
  const chosen = [best];
  /** Picks an example took the place of: what they hold still counts as reached. */
  const dropped: Scored[] = [];
  let example: Scored | undefined;
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
    const form = kindStems(question);
    oneSection(best, scored, { add, chosen, have, qTerms, code, number, form });
    if (question.wants.howTo) example = withExample(best, scored, chosen, dropped);
    otherPart(question, best, scored, passages, { add, chosen, have });
  } else {
    otherPages(best, scored, passages, { add, chosen, have, addresses, amountFound, qTerms });
  }
  return { chosen, addresses, dropped, example };
}

/**
 * Documentation answers from one section: the best sentence's section gives the answer (its
 * other sentences that score at least `FOLLOW` of the best, whether or not they add a word of
 * the question: a sentence holding no word the best lacks often holds the value asked for, and
 * requiring one lost a sixth of the guide's and nats' gold values), and another section joins
 * only when the best one lacks what is asked (an amount, a command) and a sentence there holds
 * it, or when another page search ranks among its first two passages holds as much of the
 * question (a tie). Sentences of other sections that merely share words with the question read
 * as a second, unrelated answer ("… 403, No. [1] By default, if the client does not send SNI …").
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
    /** The words that say what kind of answer is asked ("often" in "how often": `kindStems`). */
    form: Set<string>;
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
  // Another page among search's first passages (`TIED_RANK`) whose sentence holds as much of
  // the question as the best one joins though it adds no word: the two tie on the question's
  // words, and only the rank prior chose between them, which on the development sets picks the
  // page that answers no more often than word overlap does (docs/answers.md, h2a). "Is the HTTP
  // stats port protected by a login?" was answered from the profiling port's section alone,
  // whose sentence is the monitoring section's, word for word, with "profiling" for
  // "monitoring".
  const tied = (c: Scored) =>
    c.rank <= TIED_RANK && c.coverage >= best.coverage && c.passage.page !== best.passage.page;
  const others: Scored[] = [];
  for (const c of scored.slice(1)) {
    if (others.length >= 1 && 1 + followers.length + others.length >= MAX_SENTENCES - 1) break;
    // Another section's sentence without the amount asked for only shares a word ("Which
    // events: Just the push event." for "How long are usage events kept?").
    if (
      sectionKey(c.passage) === own || c.untyped || c.score < FOLLOW * best.score ||
      c.coverage < best.coverage
    ) continue;
    // The word saying what kind of answer is asked is not a part of it: "How often does paperless
    // look for new mail out of the box?" was answered "every 10 minutes by default", then by an
    // OCR setting's "will often result in…", which held "often" and "paperless".
    const adds = ctx.qTerms.some((t) => c.terms.has(t) && !have.has(t) && !ctx.form.has(t));
    const held = ctx.qTerms.filter((t) => c.terms.has(t)).length;
    if (!(adds || tied(c)) || held < Math.min(2, ctx.qTerms.length)) continue;
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
 * A how-to answer from a section whose picks show no code shows the section's example: the
 * sentence that announces a code block ("For example, you could configure `logrotate` with:"),
 * whose continuation brings the block. "How do I rotate the log file?" was answered with
 * sentences about a logrotate file ("The rest of the file specifies that the logs will rotate
 * daily…") without the file: the heading "Log Rotation" gave every sentence of the section all
 * the question's words, and the announcing one, holding fewer of its own, was not picked. It
 * and its block take the place of the section's last picks when the answer is full.
 */
function withExample(
  best: Scored,
  scored: Scored[],
  chosen: Scored[],
  dropped: Scored[],
): Scored | undefined {
  // A prose pick right above a block shows it already (`withContinuations`).
  if (chosen.some((c) => c.sentence.kind === "code" || nextIsCode(c))) return undefined;
  const own = sectionKey(best.passage);
  const announcing = scored.find((c) =>
    sectionKey(c.passage) === own && !chosen.includes(c) && c.sentence.kind === "prose" &&
    /:$/.test(c.plain) && nextIsCode(c)
  );
  if (!announcing) return undefined;
  // Room for the sentence and its block, made by the section's own last picks: a pick of another
  // page (search's first page, a part the section lacks) keeps its place.
  const made: Scored[] = [];
  for (let i = chosen.length - 1; i > 0 && chosen.length > MAX_SENTENCES - 2; i--) {
    if (sectionKey(chosen[i]!.passage) === own) made.push(...chosen.splice(i, 1));
  }
  if (chosen.length > MAX_SENTENCES - 2) {
    chosen.push(...made.reverse());
    return undefined;
  }
  dropped.push(...made);
  chosen.push(announcing);
  return announcing;
}

/** Whether the unit right after a candidate in its passage is a code block. */
function nextIsCode(c: Scored): boolean {
  return locatedSentences(c.passage).find((s) => s.start >= c.sentence.end)?.kind === "code";
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
export function topPageTerms(
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

import { plainText, type Sentence, wordCount } from "../text/sentences.ts";
import { announcesPage } from "./sentence_kinds.ts";
import { type Question, withCompounds } from "./question.ts";
import { smallTable } from "../text/unit_markdown.ts";
import { MKDOCS_MARKER } from "../text/callouts.ts";
import { locatedSentences, sectionKey } from "./located_sentences.ts";
import { type Pick, toPick, within } from "./pick.ts";
import { subsectionTerms } from "./candidates.ts";
import { MAX_SENTENCES } from "./choose_sentences.ts";
import { announcedList } from "./list_shapes.ts";
import { subsectionAfter } from "./subsections.ts";
import { headingLabel } from "./heading_names.ts";
import type { Passage } from "./passages.ts";

/**
 * The units an answer shows from one section after its first, in the order the page has them;
 * the sections in the order their best unit was picked. The best unit opens the answer, unless
 * it refers back ("This can be used…", "It also…", `REFERS_BACK`) to what the page says before
 * it, or is a note in a section a name heads (a setting's, whose name will lead the answer) while
 * the section's own text is picked too (`inAside`): then its section's units all go in page
 * order. Picked by score, "This can be used to prevent situations such as flapping alerts"
 * opened an answer before the sentence it refers to
 * ("There is also an optional `keep_firing_for` clause…"), and "This allows for…" came before
 * "The NATS server supports running as a Windows service." A section's units keep their place
 * among the other sections', so the first citation stays in the best section.
 */
export function inPageOrder(picks: Pick[]): Pick[] {
  // A sentence announcing what follows ("…one of these status codes:") stays right before it,
  // and items shown one after the other stay one list (not an item the page has before the
  // announcement: that one is of another list, and sorted in, it parted the two).
  const runs: Pick[][] = [];
  for (const [i, p] of picks.entries()) {
    const previous = picks[i - 1];
    const opens = runs.at(-1)?.[0];
    const listed = previous?.kind === "item" && p.kind === "item" &&
      (opens?.kind === "item" || p.start > opens!.start);
    const joined = previous !== undefined &&
      sectionKey(previous.passage) === sectionKey(p.passage) &&
      (/:$/.test(previous.plain) || listed);
    if (joined) runs.at(-1)!.push(p);
    else runs.push([p]);
  }
  // Items picked one after the other keep the list's order ("`never`" came before "`auto`").
  for (const run of runs) {
    const from = run[0]!.kind === "item" ? 0 : 1;
    run.splice(from, run.length - from, ...run.slice(from).sort((a, b) => a.start - b.start));
  }
  const sections = [...new Set(runs.map((r) => sectionKey(r[0]!.passage)))];
  const byPage = (a: Pick[], b: Pick[]) => a[0]!.start - b[0]!.start;
  return sections.flatMap((key, i) => {
    const own = runs.filter((r) => sectionKey(r[0]!.passage) === key);
    const [first, ...rest] = own;
    const aside = headingLabel(first![0]!.passage.section) !== null &&
      inAside(first![0]!.passage.markdown, first![0]!.start) &&
      rest.some((r) => !inAside(r[0]!.passage.markdown, r[0]!.start));
    if (i > 0 || aside || REFERS_BACK.test(first![0]!.plain)) return own.sort(byPage).flat();
    return [first!, ...rest.sort(byPage)].flat();
  });
}

/**
 * Whether the unit at `start` is in an aside: a callout (`!!! note`, `??? tip`, `:::warning`, a
 * quote opening `[!NOTE]` or `**Note**`). In a setting's section a note qualifies the setting's
 * text, and follows it when that text is picked too (the setting's name leads the answer):
 * "`PAPERLESS_ARCHIVE_FILE_GENERATION=<mode>` — The remote OCR parser (Azure AI) always
 * produces…", the section's last note, opened an answer before the setting's own "Controls when
 * paperless creates a PDF/A archive…".
 */
export function inAside(markdown: string, start: number): boolean {
  const lines = markdown.slice(Math.max(0, start - 4000), start).split("\n");
  const own = lines.pop()! + markdown.slice(start, markdown.indexOf("\n", start) >>> 0);
  if (/^\s*>/.test(own) || own.trim() === "") {
    let first = own;
    while (lines.length > 0 && /^\s*>/.test(lines.at(-1)!)) first = lines.pop()!;
    if (/^\s*>/.test(first)) return CALLOUT_QUOTE.test(first);
  }
  // MkDocs' `!!! note` holds the text indented below it, up to the first line indented no more
  // than it (the text after a note in a list item is the item's again); Docusaurus' `:::note`
  // holds any, until `:::`. A fenced block's lines are code (a `# install` in it is no heading).
  let indent = indentOf(own);
  let fenced = false;
  for (let k = lines.length - 1; k >= 0; k--) {
    const line = lines[k]!;
    const fence = /^\s*(?:`{3,}|~{3,})/.test(line);
    if (fence) fenced = !fenced;
    else if (fenced) continue;
    else if (/^ {0,3}#{1,6}\s/.test(line) || /^:::\s*$/.test(line)) return false;
    else if (/^:::\w/.test(line)) return true;
    else if (MKDOCS_OPEN.test(line)) return indent > indentOf(line);
    if (line.trim() !== "") indent = Math.min(indent, indentOf(line));
  }
  return false;
}

const MKDOCS_OPEN = new RegExp(String.raw`^\s*(?:${MKDOCS_MARKER})`);

const indentOf = (line: string) => /^\s*/.exec(line)![0].length;

/** A quote's first line that makes it a callout (GitHub's `[!NOTE]`, a bold "Note"). */
const CALLOUT_QUOTE =
  /\[!(?:NOTE|TIP|WARNING|IMPORTANT|CAUTION)\]|^\s*>\s*\*\*(?:Note|Tip|Warning|Important|Caution|Info|Danger)\b/i;

/** A sentence that opens by referring to what comes before it. */
const REFERS_BACK =
  /^(?:This|These|That|Those|It|Its|They|Their|Such|In (?:this|that|such a) case|Otherwise|The above)\b/;

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
export function withContinuations(
  chosen: (Pick & { terms: Set<string> })[],
  question: Question,
  readsOn: string[] | null,
  code: boolean,
  /** The unit (page id and start) that announces a how-to answer's example (`withExample`). */
  exampleAt?: string,
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
    const sub = howTo && i === 0 && !chosen.some((p) => p.kind === "code")
      ? subsectionAfter(c.passage, c.end)
      : null;
    if (sub) {
      intoSubsection(c, sub, question).forEach(push);
      continue;
    }
    if (!announces && !howTo && !(i === 0 && readsOn)) continue;
    const next = locatedSentences(c.passage).find((s) => s.start >= c.end);
    if (!next) continue;
    // A question asking how to do something is shown how by the code block right after a
    // sentence that answers it (the request, the command, the configuration), or that announces
    // it ("…hand it to the CLI:"): the announcement alone, its block cut, says nothing.
    const example = (question.wants.howTo || key(c) === exampleAt) && next.kind === "code";
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
    tables.some((t) => within(p, t));
  const fitted = fit(out.filter((p) => !inTable(p)), question.asked);
  // An announcement stays only right before its own continuation (or when it is the best).
  const followed = (p: Pick, i: number) =>
    fitted[i + 1] !== undefined && continuation.get(key(p)) === key(fitted[i + 1]!);
  return fitted.filter((p, i) => i === 0 || !/:$/.test(p.plain) || followed(p, i));
}

/**
 * At most `MAX_SENTENCES` picks, and past them the first pick of another section that holds a
 * word of the question none of the first section's picks hold: the part of the question it
 * joined for (`chooseSentences`), which the continuations of the first section's units (the list
 * or code block an announcing sentence brings) pushed out of the answer. "Two paperless installs
 * share one Valkey server. How do we keep them from stepping on each other's keys?" was answered
 * with the migration section's "…in a few simple steps:", "Keep these points in mind:" and their
 * lists, and `PAPERLESS_REDIS_PREFIX`'s section (it joined holding "share"), which answers, was
 * cut. Giving it the place of the first section's last unit instead lost that unit's value on a
 * held-out set.
 */
function fit<T extends Pick & { terms: Set<string> }>(picks: T[], asked: string[]): T[] {
  const shown = picks.slice(0, MAX_SENTENCES);
  const own = sectionKey(picks[0]!.passage);
  const mine = shown.filter((p) => sectionKey(p.passage) === own);
  const part = picks.slice(MAX_SENTENCES).find((p) =>
    sectionKey(p.passage) !== own && !shown.some((s) =>
      sectionKey(s.passage) === sectionKey(p.passage)
    ) &&
    asked.some((t) => p.terms.has(t) && !mine.some((m) => m.terms.has(t)))
  );
  return part ? [...shown, part] : shown;
}

/**
 * The first unit of the subsection a how-to answer's lead opens onto (`subsectionAfter`), and the
 * command right after it: a code block, or a line that is one code span (`` `$ nats-server -js`
 * ``, shown as written). "How do I enable JetStream?" was answered with "Remember that in order
 * to enable JetStream … you need to enable it on at least one of your servers" alone, the
 * section's whole text, while its subsection "Command Line" says how. Only under a section's
 * lead, not a page's (a page's sections are its contents, not its steps), and only when that
 * unit is a sentence holding two of the question's words (or its only one).
 */
function intoSubsection(
  lead: Pick,
  sub: Passage,
  question: Question,
): (Pick & { terms: Set<string> })[] {
  if (!(lead.passage.section ?? "").includes(" > ")) return [];
  const [first, second] = locatedSentences(sub);
  if (!first || first.kind !== "prose") return [];
  const pickOf = (u: NonNullable<typeof first>) => {
    const plain = plainText(u);
    return {
      ...toPick({ passage: sub, sentence: u, plain, coverage: 0 }),
      terms: new Set([...withCompounds(question, plain), ...subsectionTerms(sub)]),
    };
  };
  const says = pickOf(first);
  const held = question.asked.filter((t) => says.terms.has(t)).length;
  if (/:$/.test(says.plain) || held < Math.min(2, question.asked.length)) return [];
  if (second?.kind === "code") return [says, pickOf(second)];
  const span = second !== undefined && /^`[^`\n]+`$/.test(second.quote.trim());
  return span ? [says, { ...pickOf(second), shown: second.quote.trim() }] : [says];
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

import { LIST_ITEM, plainText, wordCount } from "../text/sentences.ts";
import { announcesPage } from "./sentence_kinds.ts";
import { composeAnswer, smallTable, unitMarkdown, withCodeSpans } from "../text/unit_markdown.ts";
import { calloutAround } from "../text/callouts.ts";
import { locatedSentences, type LocatedUnit, oneHeading, sectioned } from "./located_sentences.ts";
import type { Passage } from "./passages.ts";
import { type Pick, spanPick, stopped, widened, within } from "./pick.ts";
import { wholeItems, wholeList, withListLead } from "./list_shapes.ts";

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
export function wholeShape(picks: Pick[]): Pick[] {
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
  const rest = picks.slice(1).filter((p) => !within(p, section));
  // Another section's unit that joined (the part the first section lacks) is its section whole
  // too, when that is short: "Configures the HTTP listener…" without its "Default: `:8000`".
  const out = [section];
  for (const p of rest.map((p) => sectionOf(p) ?? p)) {
    if (!out.some((o) => within(p, o))) out.push(p);
  }
  return out;
}

/** A pick's short section whole (see `wholeSection`), or null. */
function sectionOf(first: Pick): Pick | null {
  if (first.kind === "list" || !sectioned(first.passage)) return null;
  const { passage } = first;
  const located = locatedSentences(passage);
  const span = passageSpan(passage, located);
  if (!span) return null;
  const heading = /^ {0,3}#{1,6}\s/;
  const before = passage.markdown.slice(0, span[0]).trimEnd();
  // A rule between two sections (`---`, as reference pages set their entries apart) is the
  // page's layout, not the section's text.
  const after = passage.markdown.slice(span[1]).trimStart().replace(THEMATIC_BREAK, "");
  // Under a heading below the page's title: a page's lead (under its `#` title, or under no
  // heading) introduces the page rather than answering.
  if (!/^ {0,3}#{2,6}\s/.test(before.slice(before.lastIndexOf("\n") + 1))) return null;
  if (after !== "" && !heading.test(after)) return null;
  // An image alone says nothing in words (its alt text is a caption, not a sentence), and a
  // sentence announcing its section answers nothing.
  // An HTML comment is no unit at all.
  const units = located.filter((u) =>
    !/^!\[[^\]]*\]\([^)]*\)$/.test(u.text) && !announcesPage(u.text) &&
    !/^<!--[\s\S]*-->$/.test(u.text.trim())
  );
  return shortWhole(first, units);
}

const THEMATIC_BREAK = /^(?:[-*_][ \t]*){3,}(?:\n\s*|$)/;

/**
 * Where a passage stands in its page: its text's place, or, when its text is not the page's
 * own (a section with a callout, which search reads as a quote naming its kind: `docsText`),
 * from its first located unit to its last, when they stand in page order. Null when neither.
 * Nautobot's settings hold a `!!! warning` or a `+++ 1.2.0` note in half their entries, and
 * "What is the default value of CHANGELOG_RETENTION?" was answered without its "Default: `90`".
 */
function passageSpan(passage: Passage, units: LocatedUnit[]): [number, number] | null {
  if (passage.offset >= 0) return [passage.offset, passage.offset + passage.text.length];
  if (units.length === 0 || units.some((u, i) => i > 0 && u.start < units[i - 1]!.end)) {
    return null;
  }
  return [units[0]!.start, units.at(-1)!.end];
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
  const shown: {
    kind: Pick["kind"];
    shown: string;
    plain: string;
    /** A paragraph of prose, which the next sentence goes on in if nothing stands between. */
    paragraph?: boolean;
    end?: number;
  }[] = [];
  let table: ReturnType<typeof smallTable> = null;
  for (const u of units) {
    if (table && u.start >= table.start && u.end <= table.end) continue;
    // The rows of a small table stay a table, unless the best unit is one of them: then each
    // row reads with its header ("`rejectStatusCode` — … Default: `403`."), the asked one first.
    table = u.kind === "row" && first.kind !== "row" ? smallTable(passage.markdown, u.start) : null;
    if (table) shown.push({ kind: "section", shown: table.shown, plain: table.plain });
    else if (u.kind === "item" && !LIST_ITEM.test(u.text) && shown.at(-1)?.kind === "item") {
      // A list item's next sentence goes on in that item: as an item of its own, "- Skip
      // archive generation for born-digital PDFs…" read as one more mode.
      const item = shown.at(-1)!;
      item.shown += ` ${withCodeSpans(u)}`;
      item.plain += ` ${plainText(u)}`;
    } else if (u.kind === "prose") {
      // The section's paragraphs stay paragraphs (a setting's text, its warning, its version
      // note), each sentence on in its own.
      const text = stopped(unitMarkdown(u, passage.markdown, u.start));
      const last = shown.at(-1);
      if (last?.paragraph && !/\n[ \t>]*\n/.test(passage.markdown.slice(last.end, u.start))) {
        last.shown += ` ${text}`;
        last.plain += ` ${plainText(u)}`;
        last.end = u.end;
      } else {
        shown.push({
          kind: "section",
          shown: text,
          plain: plainText(u),
          paragraph: true,
          end: u.end,
        });
      }
    } else {
      shown.push({
        kind: u.kind,
        shown: unitMarkdown(u, passage.markdown, u.start),
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

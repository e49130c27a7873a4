import { plainText, type Sentence, wordCount } from "../text/sentences.ts";
import { withCodeSpans } from "../text/unit_markdown.ts";
import { locatedSentences, type LocatedUnit, oneHeading } from "./located_sentences.ts";
import { type Pick, spanPick, toPick, widened, within } from "./pick.ts";

/**
 * A step of a procedure is not an answer alone: when the best unit is an item of a numbered
 * list (or of a bulleted list that is all its section holds), the answer gives the whole list (every step, one quote from its first item to its last,
 * rendered as a list), and drops the other picks from that list. "What do I do when a node is
 * down?" answered with step 1 of a three-step runbook.
 */
export function wholeList(picks: Pick[]): Pick[] {
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
  // A numbered list is a procedure; a bulleted one is when it is all its section says, and has
  // few items. A long one is a reference ("Available Commands": seventeen "kubectl argo rollouts
  // …" lines), and "How do I abort a rollout?" was answered with all of it.
  const steps = items.filter((u) => LIST_MARKER.test(u.text)).length;
  const whole = items.length === units.length && steps <= ANNOUNCED_LIST_ITEMS;
  if (steps < 2 || !(/^\s*\d/.test(items[0]!.text) || whole)) return picks;
  const list = listPick(first, items);
  return [list, ...picks.slice(1).filter((p) => !within(p, list))];
}

/** A list item's marker: a number (`1.`, `2)`) or a bullet. */
const LIST_MARKER = /^\s*(\d{1,9}[.)]|[-*+])\s/;
/**
 * A list a sentence announces follows whole when it has at most this many items (and so does a
 * bulleted list that is all its section holds)… */
const ANNOUNCED_LIST_ITEMS = 8;
/** …of at most this many words in all. */
const ANNOUNCED_LIST_WORDS = 120;

/**
 * The list a sentence ending in a colon announces, whole, from `next` (its first item) to its
 * last item, when it is short; else null (the first item follows alone, as any unit would).
 */
export function announcedList(c: Pick, next: Sentence & { quote: string }): Pick | null {
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
export function withListLead(picks: Pick[]): Pick[] {
  const out: Pick[] = [];
  for (const [i, p] of picks.entries()) {
    const led = p.kind === "item" && !oneHeading(p.passage) ? listLeadOf(p) : null;
    const picked = led !== null &&
      picks.some((o) => o.passage.pageId === p.passage.pageId && o.start === led.lead.start);
    const lead = led && !picked
      ? toPick({ passage: p.passage, sentence: led.lead, plain: plainText(led.lead), coverage: 0 })
      : null;
    const list = lead && i > 0 ? announcedList(lead, led!.first) : null;
    const shown = !lead ? [p] : i === 0 ? [lead, p] : list ? [lead, list] : [p];
    for (const q of shown) if (!out.some((o) => within(q, o))) out.push(q);
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
export function wholeItems(picks: Pick[]): Pick[] {
  return widened(picks, (p) => p.kind === "item" && !oneHeading(p.passage) ? itemAround(p) : p);
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

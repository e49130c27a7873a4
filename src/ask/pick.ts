import type { Passage } from "./passages.ts";
import type { Sentence } from "../text/sentences.ts";
import { unitMarkdown } from "../text/unit_markdown.ts";

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

/**
 * A sentence the page left without its full stop (a setting's description, "Supported since
 * NATS server version 2.3.0") gets one in the answer; its quote stays as written.
 */
export function stopped(text: string): string {
  return /[.!?:]["')\]]?$/.test(text) ? text : `${text}.`;
}

/** A unit of a passage as a pick: its quote, its place in the page and how the answer shows it. */
export function toPick(
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

/** `base` made the span of its passage from `units[0]` to the last unit: one quote, shown so. */
export function spanPick(base: Pick, units: Sentence[], plain: string, shown: string): Pick {
  const start = units[0]!.start;
  const end = units.at(-1)!.end;
  return { ...base, quote: base.passage.markdown.slice(start, end), start, end, plain, shown };
}

/** Whether pick `a` is a part of the page pick `b` already quotes. */
export function within(a: Pick, b: Pick): boolean {
  return a.passage.pageId === b.passage.pageId && a.start >= b.start && a.end <= b.end;
}

/** Each pick as `widen` makes it, leaving out those a wider one before them already holds. */
export function widened(picks: Pick[], widen: (p: Pick) => Pick): Pick[] {
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

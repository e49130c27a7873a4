import { contentTerms } from "../text/terms.ts";
import type { Citation, FrontierNote } from "./ask_schema.ts";

/** A value a sentence states: a number, a version or a port, with the word that names it. */
type Stated = { key: string; value: string };

/** Two sentences must share at least this share of their words to be about the same thing. */
const SAME_TOPIC = 0.4;

/**
 * Cited passages of different pages that state different values for the same thing: the same
 * word names a number, version or port in both (`port 8443` / `port 7443`), and the sentences
 * otherwise say much the same (their words overlap by `SAME_TOPIC`). One `conflict` note per
 * pair of pages and thing, naming both pages and both values.
 */
export function conflictNotes(citations: Citation[]): FrontierNote[] {
  const notes: FrontierNote[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < citations.length; i++) {
    for (let j = i + 1; j < citations.length; j++) {
      const a = citations[i]!;
      const b = citations[j]!;
      if (a.page === b.page || overlap(a.quote, b.quote) < SAME_TOPIC) continue;
      const bValues = statedValues(b.quote);
      for (const x of statedValues(a.quote)) {
        const others = bValues.filter((y) => y.key === x.key);
        if (others.length === 0 || others.some((y) => y.value === x.value)) continue;
        const y = others[0]!;
        const id = [a.page, b.page, x.key].join("\u0000");
        if (seen.has(id)) continue;
        seen.add(id);
        notes.push({
          kind: "conflict",
          note:
            `"${a.page}" says ${x.key} ${x.value} [${a.n}], "${b.page}" says ${y.key} ${y.value} [${b.n}]: ` +
            "check which is current",
          pages: [a.page, b.page],
        });
      }
    }
  }
  return notes;
}

/** Numbers and versions in a sentence, each keyed by the nearest content word before it. */
export function statedValues(sentence: string): Stated[] {
  const out: Stated[] = [];
  const pattern = /\b(v?\d+(?:[.,:]\d+)*)\b/g;
  for (const m of sentence.matchAll(pattern)) {
    const before = [...contentTerms(sentence.slice(Math.max(0, m.index - 60), m.index)).keys()]
      .filter((t) => !/\d/.test(t));
    const key = before[before.length - 1];
    if (key) out.push({ key, value: m[1]! });
  }
  return out;
}

/** Share of the smaller sentence's content words (numbers aside) that the other one holds. */
function overlap(a: string, b: string): number {
  const words = (s: string) => new Set([...contentTerms(s).keys()].filter((t) => !/\d/.test(t)));
  const x = words(a);
  const y = words(b);
  const shared = [...x].filter((t) => y.has(t)).length;
  return shared / Math.max(1, Math.min(x.size, y.size));
}

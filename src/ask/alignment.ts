import { contentTerms, stem, STOPWORDS, tokenize } from "../text/terms.ts";
import type { Passage } from "./passages.ts";
import { plainText, splitSentences } from "../text/sentences.ts";

/**
 * How the question lines up with its best sentence window, for the verdict (src/ask/verdict.ts),
 * documented in docs/answers.md. Weights are IDF among the retrieved passages (a question word
 * no passage holds weighs as the rarest); the best window is the sentence plus the next one with
 * the largest weighted share of the question's words.
 */
export type Alignment = {
  /** Weighted question words the best window holds, absolute (not a share). */
  heldWeight: number;
  /** Weighted question words the best window lacks, absolute. */
  missingWeight: number;
  /** Weight of the heaviest question word the best window lacks, over the heaviest word's. */
  missingMax: number;
  /** Share of the question's names (capitalised words past its first) in the best window. */
  names: number;
  /** How many names the question has (0 to 4). */
  nameCount: number;
  /** Share of the question's numbers in the best window (1 when it has none). */
  numbers: number;
  /** Share of the matched word pairs in the best window that stand in the question's order. */
  order: number;
  /** Matched words over the span of tokens they cover in the best window (1 = contiguous). */
  density: number;
  /** The best window holds a token of the asked kind, new to the question, near matched words. */
  nearAnswer: number;
  /** How many pages hold a window with at least 80% of the best window's share (1 to 8). */
  rivals: number;
  /** Share of the question's words held by the best window that are not topic words. */
  ownHeld: number;
};

const NONE: Alignment = {
  heldWeight: 0,
  missingWeight: 0,
  missingMax: 1,
  names: 0,
  nameCount: 0,
  numbers: 0,
  order: 0,
  density: 0,
  nearAnswer: 0,
  rivals: 0,
  ownHeld: 0,
};

/** The alignment evidence of a question against its retrieved passages. */
export function alignment(question: string, passages: Passage[]): Alignment {
  const qTerms = [...contentTerms(question).keys()];
  if (qTerms.length === 0 || passages.length === 0) return NONE;
  const docs = passages.map((p) => new Set(contentTerms(`${p.title} ${p.text}`).keys()));
  const n = passages.length;
  const idf = new Map(qTerms.map((t) => {
    const df = docs.filter((d) => d.has(t)).length;
    return [t, Math.log(1 + (n + 1) / (0.5 + df))];
  }));
  const total = qTerms.reduce((s, t) => s + idf.get(t)!, 0);
  const heaviest = Math.max(...idf.values());
  const title = new Set(contentTerms(passages[0]!.title).keys());
  const topic = new Set(
    qTerms.filter((t) => title.has(t) || docs.filter((d) => d.has(t)).length >= n / 2),
  );
  const names = questionNames(question);
  const numbers = tokenize(question).filter((w) => /\d/.test(w));
  const qWords = new Set(tokenize(question));
  const kind = askedKind(question);
  type Window = { page: string; text: string; share: number };
  const windows: Window[] = [];
  for (const passage of passages) {
    const sentences = splitSentences(passage.text)
      .filter((s) => s.kind !== "heading" && s.kind !== "markup")
      .map((s) => plainText(s));
    sentences.forEach((s, i) => {
      const text = `${s} ${sentences[i + 1] ?? ""}`;
      const terms = new Set(contentTerms(text).keys());
      const share = qTerms.reduce((a, t) => a + (terms.has(t) ? idf.get(t)! : 0), 0) / total;
      windows.push({ page: passage.page, text, share });
    });
  }
  if (windows.length === 0) return NONE;
  const best = windows.reduce((a, b) => (b.share > a.share ? b : a));
  const tokens = tokenize(best.text);
  const stems = tokens.map(stem);
  const terms = new Set(contentTerms(best.text).keys());
  const held = qTerms.filter((t) => terms.has(t));
  const missing = qTerms.filter((t) => !terms.has(t));
  const lower = new Set(tokens);
  // Positions of the matched words in the window, in the question's order.
  const positions = held.map((t) => stems.indexOf(t)).filter((p) => p >= 0);
  let pairs = 0;
  let ordered = 0;
  for (let i = 0; i < positions.length; i++) {
    for (let j = i + 1; j < positions.length; j++) {
      pairs++;
      if (positions[i]! < positions[j]!) ordered++;
    }
  }
  const span = positions.length > 0 ? Math.max(...positions) - Math.min(...positions) + 1 : 1;
  const pages = new Map<string, number>();
  for (const w of windows) pages.set(w.page, Math.max(pages.get(w.page) ?? 0, w.share));
  const own = qTerms.filter((t) => !topic.has(t));

  return {
    heldWeight: held.reduce((s, t) => s + idf.get(t)!, 0),
    missingWeight: missing.reduce((s, t) => s + idf.get(t)!, 0),
    missingMax: missing.length === 0 ? 0 : Math.max(...missing.map((t) => idf.get(t)!)) / heaviest,
    names: names.length === 0 ? 1 : names.filter((w) => lower.has(w)).length / names.length,
    nameCount: Math.min(names.length, 4),
    numbers: numbers.length === 0 ? 1 : numbers.filter((w) => lower.has(w)).length / numbers.length,
    order: pairs === 0 ? 0 : ordered / pairs,
    density: positions.length === 0 ? 0 : positions.length / span,
    nearAnswer: kind ? nearAnswer(kind, tokens, best.text, qWords, positions) : 0,
    rivals: [...pages.values()].filter((s) => s >= 0.8 * best.share).length,
    ownHeld: own.length === 0 ? 1 : own.filter((t) => terms.has(t)).length / own.length,
  };
}

/** The question's capitalised words past its first word, lower-cased, stop words aside. */
function questionNames(question: string): string[] {
  const words = [...question.matchAll(/\p{L}[\p{L}\p{N}'’-]*/gu)].map((m) => m[0]);
  return [
    ...new Set(
      words.slice(1).filter((w) => /^\p{Lu}/u.test(w)).flatMap((w) => tokenize(w))
        .filter((w) => !STOPWORDS.has(w)),
    ),
  ];
}

type Kind = "number" | "date" | "name";

function askedKind(question: string): Kind | null {
  const q = question.toLowerCase();
  if (/\b(what|which) (year|decade|century|month|day|date)\b|\bwhen\b/.test(q)) return "date";
  if (
    /\bhow (many|much|long|old|far|tall|large|big|high|often)\b|\bwhat (percentage|number|amount)\b/
      .test(q)
  ) return "number";
  if (/\bwho(m|se)?\b|\bwhere\b|\bwhat (city|country|company|team|state|person)\b/.test(q)) {
    return "name";
  }
  return null;
}

/** Whether a token of `kind`, new to the question, stands within 8 tokens of a matched word. */
function nearAnswer(
  kind: Kind,
  tokens: string[],
  text: string,
  qWords: Set<string>,
  positions: number[],
): number {
  const near = (i: number) => positions.some((p) => Math.abs(p - i) <= 8);
  if (kind === "number" || kind === "date") {
    const pattern = kind === "date"
      ? /^(1\d{3}|20\d{2}|\d{1,4}s|january|february|march|april|may|june|july|august|september|october|november|december|century)$/
      : /^(\d+|one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand|million|billion|dozen)$/;
    return tokens.some((w, i) => pattern.test(w) && !qWords.has(w) && near(i)) ? 1 : -1;
  }
  const caps = new Set(
    [...text.matchAll(/(?<=\S\s+)\p{Lu}\p{L}+/gu)].map((m) => m[0].toLowerCase())
      .filter((w) => !qWords.has(w) && !STOPWORDS.has(w)),
  );
  return tokens.some((w, i) => caps.has(w) && near(i)) ? 1 : -1;
}

/** A sentence of a passage, verbatim, with its position in the passage text. */
export type Sentence = { text: string; start: number };

/**
 * Splits passage text into sentences: at `.`, `!` or `?` followed by space and a capital, a
 * digit or a quote, and at line breaks (list items, headings). Each piece is verbatim.
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const boundary = /(?<=[.!?])["')\]]?\s+(?=["'(\[]?[A-Z0-9])|\n+/g;
  let start = 0;
  const push = (end: number) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const piece = raw.trim();
    if (piece) out.push({ text: piece, start: start + lead });
  };
  for (const m of text.matchAll(boundary)) {
    push(m.index);
    start = m.index + m[0].length;
  }
  push(text.length);
  return out;
}

/** Whether a sentence is only markup (a heading line, a rule, a table border). */
export function isMarkupOnly(sentence: string): boolean {
  return /^(#{1,6}\s|[-*_=|:\s]+$|```)/.test(sentence);
}

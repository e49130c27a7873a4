/**
 * Fenced code blocks, line by line, as CommonMark reads them: a fence opens with three or more
 * backticks or tildes, up to three spaces in, and closes on a line of the same character, at
 * least as many, and nothing else. One reading for the code mask (links in code are not links)
 * and the chunker (a block is one block).
 */

/** The fence a line opens a code block with (```` ``` ````, `~~~~`), or null. */
export function fenceOf(line: string): string | null {
  return /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1] ?? null;
}

/** Whether a line closes a code block opened by `fence`. */
export function closesFence(line: string, fence: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  return m !== null && m[1]![0] === fence[0] && m[1]!.length >= fence.length;
}

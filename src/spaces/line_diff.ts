import { diffLines } from "diff";

/** One line of a diff: kept, added or removed. */
export type DiffLine = { kind: "same" | "added" | "removed"; text: string };

/** A run of lines shown, or a run of unchanged lines folded away. */
export type DiffPart = { kind: "lines"; lines: DiffLine[] } | { kind: "skipped"; count: number };

/** A line diff ready to show; `parts` is null when the texts differ too much to compare. */
export type LineDiff = { parts: DiffPart[] | null; added: number; removed: number };

/** Edits past which the diff gives up (Myers' algorithm grows with the edit distance). */
const MAX_EDITS = 20_000;

/**
 * Compares two texts line by line, keeping `context` unchanged lines around each change and
 * folding the rest, as `diff -u` does.
 */
export function lineDiff(before: string, after: string, context = 3): LineDiff {
  // A last line with and without its newline is the same line to a reader: without this, a
  // text saved without the final newline shows its unchanged last line removed and re-added.
  const changes = diffLines(endLine(before), endLine(after), { maxEditLength: MAX_EDITS });
  if (!changes) return { parts: null, added: 0, removed: 0 };
  const lines: DiffLine[] = [];
  for (const change of changes) {
    const kind = change.added ? "added" : change.removed ? "removed" : "same";
    const texts = change.value.split("\n");
    if (texts[texts.length - 1] === "") texts.pop();
    for (const text of texts) lines.push({ kind, text });
  }
  const keep = lines.map(() => false);
  lines.forEach((line, i) => {
    if (line.kind === "same") return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) {
      keep[j] = true;
    }
  });
  const parts: DiffPart[] = [];
  for (let i = 0; i < lines.length;) {
    let j = i;
    while (j < lines.length && keep[j] === keep[i]) j++;
    parts.push(
      keep[i] ? { kind: "lines", lines: lines.slice(i, j) } : { kind: "skipped", count: j - i },
    );
    i = j;
  }
  return {
    parts,
    added: lines.filter((l) => l.kind === "added").length,
    removed: lines.filter((l) => l.kind === "removed").length,
  };
}

function endLine(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

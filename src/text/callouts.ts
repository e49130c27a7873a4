import { pageLines } from "./lines.ts";

/**
 * Where a callout (an admonition: a note, a tip, a warning) stands in a page's markdown, as its
 * docs tool wrote it: GitBook `{% hint %}` … `{% endhint %}`, Docusaurus `:::note` … `:::`,
 * Mintlify `<Note>` … `</Note>` (and its other callout components), MkDocs `!!! note` or
 * `??? tip` with its indented body, and GitHub's `> [!NOTE]` quote.
 */

/** Callouts opened and closed by lines of their own. */
const PAIRED: { open: RegExp; close: RegExp }[] = [
  { open: /^\s*\{%-?\s*hint\b.*%\}\s*$/, close: /^\s*\{%-?\s*endhint\s*-?%\}\s*$/ },
  { open: /^\s*:::[\w-]+/, close: /^\s*:::\s*$/ },
  {
    open: /^\s*<(Note|Warning|Tip|Info|Check|Danger|Callout|aside)\b[^>]*>\s*$/,
    close: /^\s*<\/(Note|Warning|Tip|Info|Check|Danger|Callout|aside)>\s*$/,
  },
];
/**
 * MkDocs' callout openers, without anchors: an admonition (`!!! note`, `??? tip`, `???+ tip`)
 * or a version annotation of the mkdocs-version-annotations plugin (`+++ 1.2.0` added, `+/-
 * 1.2.0` changed, `--- 1.2.0` removed; a `---` without a version is a rule). Nautobot's settings
 * reference opens half its entries with one: read as text, "+++ 1.5.10." opened an answer.
 */
export const VERSION_MARK = String.raw`(?:\+\+\+|\+\/-|---)[ \t]+v?\d[\w.-]*`;
export const MKDOCS_MARKER = String.raw`(?:!!!|\?\?\?\+?)[ \t]*[\w-]+|${VERSION_MARK}`;
const MKDOCS_OPEN = new RegExp(`^(?:${MKDOCS_MARKER})`);
const INDENTED = /^(?: {4}|\t)/;
const HEADING = /^ {0,3}#{1,6}\s/;
const GITHUB_ALERT = /\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]/;

/**
 * The body of the callout around offset `at` of `markdown` ([start, end) from its first line
 * after the opening one to the end of its last), or null when `at` stands in none. A callout
 * never runs across a heading.
 */
export function calloutAround(markdown: string, at: number): [number, number] | null {
  const lines = pageLines(markdown);
  const here = lines.findIndex((l) => at <= l.end);
  if (here < 0) return null;
  const body = (from: number, to: number): [number, number] | null => {
    while (to > from && !lines[to]!.text.trim()) to--;
    return to >= from ? [lines[from]!.start, lines[to]!.end] : null;
  };
  for (const { open, close } of PAIRED) {
    if (open.test(lines[here]!.text) || close.test(lines[here]!.text)) continue;
    for (let k = here - 1; k >= 0 && !HEADING.test(lines[k]!.text); k--) {
      if (close.test(lines[k]!.text)) break;
      if (!open.test(lines[k]!.text)) continue;
      for (let j = here + 1; j < lines.length && !HEADING.test(lines[j]!.text); j++) {
        if (close.test(lines[j]!.text)) return body(k + 1, j - 1);
      }
      break;
    }
  }
  if (INDENTED.test(lines[here]!.text)) {
    let k = here - 1;
    while (k >= 0 && (INDENTED.test(lines[k]!.text) || !lines[k]!.text.trim())) k--;
    if (k >= 0 && MKDOCS_OPEN.test(lines[k]!.text)) {
      let j = here + 1;
      while (j < lines.length && (INDENTED.test(lines[j]!.text) || !lines[j]!.text.trim())) j++;
      return body(k + 1, j - 1);
    }
  }
  if (/^\s*>/.test(lines[here]!.text)) {
    let k = here;
    while (k > 0 && /^\s*>/.test(lines[k - 1]!.text)) k--;
    let j = here;
    while (j + 1 < lines.length && /^\s*>/.test(lines[j + 1]!.text)) j++;
    if (GITHUB_ALERT.test(lines[k]!.text)) return body(k + 1, j);
  }
  return null;
}

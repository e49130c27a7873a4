import { pathKey } from "../markdown/paths.ts";
import { contentTerms } from "../text/terms.ts";

/** Where a question falls among the coverage gaps: its group's key and a page title to write. */
export type Gap = { key: string; title: string };

/** Longest page title a gap suggests. */
const TITLE_CHARS = 80;

/**
 * The coverage gap a question belongs to. Similar questions share a key, so the usage page
 * lists them together: one an unwritten page would answer is keyed by that page (its path,
 * which is also the title to write); otherwise by the question's words no passage held, and
 * when every word was found, by all its content words (stemmed and sorted, so "rotating keys"
 * and "rotate the key" meet). The title is then the question's own content words.
 *
 * @example
 * ```ts
 * gapOf("How do I rotate API keys?", ["rotate"], []);
 * // { key: "terms:rotat", title: "Rotate API keys" }
 * ```
 */
export function gapOf(question: string, absent: string[], unwritten: string[]): Gap {
  const page = unwritten[0];
  if (page) return { key: `page:${pathKey(page)}`, title: page };
  // The search stemmer is light ("rotate", "rotat"): a final "e" is dropped too.
  const terms = [...contentTerms((absent.length > 0 ? absent : [question]).join(" ")).keys()]
    .map((t) => t.replace(/(?<=..)e$/, ""));
  const title = titleOf(question);
  if (terms.length === 0) return { key: `text:${title.toLowerCase()}`, title };
  return { key: `terms:${[...new Set(terms)].sort().join(" ")}`, title };
}

/** A question's content words in order, as asked, capitalised: a page title to start from. */
export function titleOf(question: string): string {
  const words = question.match(/[\p{L}\p{N}][\p{L}\p{N}'’_.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? [];
  const kept = words.filter((w) => contentTerms(w).size > 0);
  let title = (kept.length > 0 ? kept.join(" ") : question.replace(/[?!.\s]+$/, "")).trim();
  if (title.length > TITLE_CHARS) title = title.slice(0, TITLE_CHARS).replace(/\s+\S*$/, "");
  return title.charAt(0).toUpperCase() + title.slice(1);
}

import { AppError } from "../errors.ts";

/** Where each surface lists the public wikis, for not-found messages in its own words. */
export const WIKI_LIST_HINTS = {
  mcp: "Call list_wikis for the ids",
  rest: "GET /api/v1/public/wikis lists the ids",
  web: "/llms.txt lists the public wikis",
} as const;

/** Where each surface lists the caller's spaces. */
export const SPACE_LIST_HINTS = {
  mcp: "Call my_spaces for the ids",
  rest: "GET /api/v1/spaces lists the ids",
  web: "/account lists your spaces",
} as const;

/** The surfaces a caller comes through; each words its hints in its own terms. */
export type Surface = keyof typeof WIKI_LIST_HINTS;

/**
 * `wiki_not_found` for `id`, suggesting up to five close ids among `candidates` (only wikis
 * the caller may reach, so a suggestion never reveals a private wiki), else the `hint`.
 */
export function wikiNotFound(
  message: string,
  id: string,
  candidates: string[],
  hint: string,
): AppError {
  const close = candidates.filter((c) =>
    c.includes(id) || id.includes(c) || editDistance(c, id) <= 2
  ).slice(0, 5);
  const suggestion = close.length > 0
    ? `; did you mean ${close.map((c) => `"${c}"`).join(", ")}?`
    : `. ${hint}`;
  return new AppError("wiki_not_found", message + suggestion, { suggestions: close });
}

/** Levenshtein distance, cut off at 3 (only "within two edits" matters here). */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

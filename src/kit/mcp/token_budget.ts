import { z } from "zod";
import { decodeCursor, encodeCursor } from "../../lib/cursor.ts";

/**
 * How tools size a response for `max_tokens`: an estimate, one token per four characters of
 * the JSON result (the larger of the two renderings a client may hand its model). Real
 * tokenizers differ by model; four characters is the usual rule for English text and code.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The `max_tokens` parameter of `search`, `get_page` and `ask`. */
export const maxTokensParam = z.number().int().min(200).max(100_000).optional().describe(
  "Fit the response into about this many tokens (estimated as characters / 4); what is cut, " +
    "and how to get it, is said in `budget`",
);

/** What a response says when it was cut to fit `max_tokens`. */
export const budgetSchema = z.object({
  max_tokens: z.number().int(),
  estimated_tokens: z.number().int().describe("This response's size, as characters / 4"),
  cut: z.string().nullable().describe("What was left out and how to get it; null when nothing"),
}).optional();

/** The `budget` field of a response fitted to `max_tokens`. */
export type Budget = z.infer<typeof budgetSchema>;

/** The budget a fitted response reports, with what was cut (null: nothing). */
export function budgetOf(
  maxTokens: number,
  value: unknown,
  cut: string | null,
): NonNullable<Budget> {
  const estimated = estimateTokens(JSON.stringify(value)) + 40; // the budget field itself
  return { max_tokens: maxTokens, estimated_tokens: estimated, cut };
}

/** Whether `value` fits `maxTokens` as JSON. */
export function fits(value: unknown, maxTokens: number): boolean {
  return estimateTokens(JSON.stringify(value)) + 40 <= maxTokens;
}

/**
 * Search results cut to `maxTokens`: results drop from the end (a next cursor then starts at
 * the first one dropped); if one result alone is too large, its snippet is shortened.
 */
export function fitSearch<
  R extends { snippet: string },
  O extends { results: R[]; next_cursor: string | null },
>(out: O, maxTokens: number, cursor: string | undefined): O & { budget: Budget } {
  let results = out.results;
  while (results.length > 1 && !fits({ ...out, results }, maxTokens)) {
    results = results.slice(0, -1);
  }
  let shortened = false;
  while (results.length === 1 && !fits({ ...out, results }, maxTokens)) {
    const snippet = results[0]!.snippet;
    if (snippet.length <= 40) break;
    results = [{ ...results[0]!, snippet: `${snippet.slice(0, Math.floor(snippet.length / 2))}…` }];
    shortened = true;
  }
  const dropped = out.results.length - results.length;
  if (dropped === 0 && !shortened) {
    return { ...out, budget: budgetOf(maxTokens, out, null) };
  }
  const start = cursor ? Number(decodeCursor(cursor).slice(2)) || 0 : 0;
  const next = dropped > 0 ? encodeCursor(`o:${start + results.length}`) : out.next_cursor;
  const cut = [
    dropped > 0 &&
    `${dropped} more result${
      dropped === 1 ? "" : "s"
    } left out: call search again with cursor = next_cursor, or with a smaller limit`,
    shortened && "the snippet was shortened: read the page with get_page",
  ].filter(Boolean).join("; ");
  const fitted = { ...out, results, next_cursor: next };
  return { ...fitted, budget: budgetOf(maxTokens, fitted, cut) };
}

/** The `max_chars` of a page slice that leaves room for the rest of the response. */
export function sliceChars(maxTokens: number, overheadChars: number): number {
  return Math.max(200, maxTokens * 4 - overheadChars - 200);
}

/** Records a page slice's budget, with how to read on when the slice was cut. */
export function pageBudget<
  P extends { truncated: boolean; next_offset: number | null; links: unknown[] },
>(page: P, maxTokens: number, cutByBudget: boolean): P & { budget: Budget } {
  let fitted = page;
  let linksCut = 0;
  while (fitted.links.length > 0 && !fits(fitted, maxTokens)) {
    linksCut = page.links.length - Math.floor(fitted.links.length / 2);
    fitted = { ...fitted, links: fitted.links.slice(0, Math.floor(fitted.links.length / 2)) };
  }
  const cuts = [
    cutByBudget && page.truncated &&
    `the page goes on: call get_page again with offset = ${page.next_offset}`,
    linksCut > 0 && `${linksCut} links left out: call neighbors for all of them`,
  ].filter(Boolean);
  return {
    ...fitted,
    budget: budgetOf(maxTokens, fitted, cuts.length > 0 ? cuts.join("; ") : null),
  };
}

/** The line a tool's text ends with when its response was cut to fit, else nothing. */
export function cutLine(out: object): string[] {
  const budget = (out as { budget?: { cut: string | null } }).budget;
  return budget?.cut ? [`\n[Cut to fit max_tokens: ${budget.cut}]`] : [];
}

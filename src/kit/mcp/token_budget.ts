import { z } from "zod";
import type { Answer } from "../../ask/ask_schema.ts";
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

type Budget = z.infer<typeof budgetSchema>;

function budgetOf(maxTokens: number, value: unknown, cut: string | null): NonNullable<Budget> {
  const estimated = estimateTokens(JSON.stringify(value)) + 40; // the budget field itself
  return { max_tokens: maxTokens, estimated_tokens: estimated, cut };
}

function fits(value: unknown, maxTokens: number): boolean {
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

/**
 * An answer cut to `maxTokens`: frontier notes go first, then long quotes are shortened,
 * then citations drop from the end, and last the answer text itself is cut.
 */
export function fitAnswer(out: Answer, maxTokens: number): Answer & { budget: Budget } {
  // Room for what is added after fitting: the budget field and its "what was cut" line, which
  // the text rendering repeats.
  const reserve = 100;
  const fitsHere = (a: Answer) => fits(a, maxTokens - reserve);
  const cuts: string[] = [];
  let answer = out;
  if (!fitsHere(answer) && answer.frontier.length > 0) {
    cuts.push(`${answer.frontier.length} frontier notes left out (coverage: ${answer.coverage})`);
    answer = { ...answer, frontier: [] };
  }
  if (!fitsHere(answer)) {
    // Shortened quotes stay verbatim: the first 160 characters, their offsets moved to match.
    answer = {
      ...answer,
      citations: answer.citations.map((c) =>
        c.quote.length > 160 ? { ...c, quote: c.quote.slice(0, 160), end: c.start + 160 } : c
      ),
    };
    cuts.push("quotes shortened to their first 160 characters: read the cited pages with get_page");
  }
  const all = answer.citations.length;
  while (answer.citations.length > 1 && !fitsHere(answer)) {
    answer = { ...answer, citations: answer.citations.slice(0, -1) };
  }
  if (answer.citations.length < all) {
    cuts.push(`${all - answer.citations.length} citations left out`);
  }
  if (!fitsHere(answer)) {
    const over = JSON.stringify(answer).length + 160 - (maxTokens - reserve) * 4;
    const keep = Math.max(80, answer.answer.length - over);
    answer = { ...answer, answer: `${answer.answer.slice(0, keep)}…` };
    cuts.push("the answer was cut short");
  }
  const cut = cuts.length > 0
    ? `${cuts.join("; ")}. For all of it, call ask again with a larger max_tokens`
    : null;
  return { ...answer, budget: budgetOf(maxTokens, answer, cut) };
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

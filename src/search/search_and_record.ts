import type { z } from "zod";
import type { Deps } from "../deps.ts";
import { recordSearch } from "../usage/record_usage.ts";
import type { UsageSource } from "../usage/record_usage.ts";
import { type searchInput, type SearchOutput, searchWikis } from "./search_wikis.ts";

/** What a caller shows of a search: the wiki of each result is what it counts by. */
type Shown = { results: { wiki: string }[] };

/**
 * Searches `wikis` and counts the search on their usage pages: the one search every surface
 * makes (MCP `search`, REST `GET …/search`, the web app's search pages), so each counts alike.
 * `shown` gives what the caller will show of the results (MCP's `max_tokens` may drop some from
 * the end); the search counts the pages shown.
 *
 * @example
 * const found = await searchAndRecord(deps, ["docs"], { query: "setup" }, { via: "rest", client: ua });
 */
export function searchAndRecord(
  deps: Deps,
  wikis: string[],
  input: z.input<typeof searchInput>,
  searcher: UsageSource,
): Promise<SearchOutput>;
export function searchAndRecord<T extends Shown>(
  deps: Deps,
  wikis: string[],
  input: z.input<typeof searchInput>,
  searcher: UsageSource,
  shown: (found: SearchOutput) => T,
): Promise<T>;
export async function searchAndRecord(
  deps: Deps,
  wikis: string[],
  input: z.input<typeof searchInput>,
  searcher: UsageSource,
  shown: (found: SearchOutput) => Shown = (found) => found,
): Promise<Shown> {
  const out = shown(await searchWikis(deps, wikis, input));
  await recordSearch(deps, {
    wikis,
    query: input.query,
    results: out.results,
    cursor: input.cursor,
    ...searcher,
  });
  return out;
}

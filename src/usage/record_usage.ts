import type { Deps } from "../deps.ts";
import { pathKey } from "../markdown/paths.ts";
import {
  deleteOldSearchQueries,
  insertSearchQuery,
  type SearchMade,
  upsertUsage,
  type UsageKind,
} from "./store.ts";

/** Questions and searches are kept this many days: the usage page's longest period. */
export const RETENTION_DAYS = 90;

/** One in a hundred kept questions or searches also prunes those past `RETENTION_DAYS`. */
export const PRUNE_EVERY = 100;

/** One call to count: a search of a wiki, or a read or confirmed use of one of its pages. */
export type UsageEvent = {
  wikiId: string;
  kind: UsageKind;
  /** The page's path, for reads and confirmed uses. */
  page?: string | null;
  /** The caller's name: an OAuth client's, or a User-Agent. */
  client: string | null | undefined;
  /** A search's query, how many pages its first page of results holds, and its transport. */
  search?: { query: string; results: number; via: SearchMade["via"] };
};

/**
 * Counts a call on the usage page: one upsert into today's counters, and for a search the
 * query itself, kept `RETENTION_DAYS` for the wiki's members. A statistic is never a reason to
 * fail the call it counts, so a failure is logged and swallowed.
 */
export async function recordUsage(
  deps: Pick<Deps, "db" | "log">,
  event: UsageEvent,
): Promise<void> {
  const page = event.page ?? null;
  try {
    await upsertUsage(
      deps.db,
      { wikiId: event.wikiId, kind: event.kind, pagePath: page, pageKey: page && pathKey(page) },
      usageClient(event.client),
    );
    if (event.search) {
      await insertSearchQuery(deps.db, {
        wikiId: event.wikiId,
        query: event.search.query.slice(0, 1000),
        results: event.search.results,
        via: event.search.via,
        client: usageClient(event.client),
      });
      if (Math.random() < 1 / PRUNE_EVERY) await deleteOldSearchQueries(deps.db, RETENTION_DAYS);
    }
  } catch (error) {
    deps.log.warn("usage not recorded", {
      wiki_id: event.wikiId,
      kind: event.kind,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** One search as made: the wikis it covered and the pages of results it showed. */
export type SearchEvent = {
  wikis: string[];
  query: string;
  /** The wiki of each result on the page shown. */
  results: { wiki: string }[];
  /** Set for a later page of the same results, which is not another search to list. */
  cursor?: string | null | undefined;
  via: SearchMade["via"];
  client: string | null | undefined;
};

/**
 * Counts a search on the usage page of each wiki it concerns, the one rule for MCP, REST and the
 * web app: one wiki searched counts there; a search across many counts where it found pages.
 */
export async function recordSearch(
  deps: Pick<Deps, "db" | "log">,
  event: SearchEvent,
): Promise<void> {
  const counted = event.wikis.length === 1
    ? event.wikis
    : [...new Set(event.results.map((r) => r.wiki))];
  for (const wikiId of counted) {
    const results = event.results.filter((r) => r.wiki === wikiId).length;
    await recordUsage(deps, {
      wikiId,
      kind: "search",
      client: event.client,
      search: event.cursor ? undefined : { query: event.query, results, via: event.via },
    });
  }
}

/** Searches and questions made in the web app, as the usage page names them. */
export const WEB_CLIENT = { via: "web", client: "Web app" } as const;

/**
 * The name usage is grouped by: a User-Agent's first product without its version
 * (`claude-code/2.0.1 (cli)` → `claude-code`), so each release does not count apart; any
 * other name (an OAuth client's, such as `Claude`) as given; `""` when there is none.
 * `migrations/0009_usage_events.sql` applies the same rule to older confirmed uses.
 */
export function usageClient(name: string | null | undefined): string {
  if (!name) return "";
  const product = /^([^\s/]+)\//.exec(name);
  return (product ? product[1]! : name.trim()).slice(0, 64);
}

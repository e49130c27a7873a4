import type { Deps } from "../deps.ts";
import type { Db } from "../db/db.ts";
import { pathKey } from "../markdown/paths.ts";
import { batchUsageLater, writeUsageLater } from "./usage_writes.ts";
import {
  deleteOldQueries,
  insertSearchUsage,
  type SearchUsageRow,
  upsertUsage,
  type UsageSource,
} from "./store.ts";

export type { UsageSource };

/** Questions and searches are kept this many days: the usage page's longest period. */
const RETENTION_DAYS = 90;

/** One in a hundred kept questions or searches also prunes both past `RETENTION_DAYS`. */
const PRUNE_EVERY = 100;

/**
 * The one prune rule of kept questions and searches, run by both recorders: now and then (one
 * call in `PRUNE_EVERY`), delete those past `RETENTION_DAYS`, in every wiki.
 */
export async function pruneKeptQueries(db: Db): Promise<void> {
  if (Math.random() < 1 / PRUNE_EVERY) await deleteOldQueries(db, RETENTION_DAYS);
}

/** One read or confirmed use of a page to count (searches: `recordSearch`). */
export type UsageEvent = {
  wikiId: string;
  kind: "read" | "confirm";
  /** The page's path. */
  page: string;
  /** The caller's name: an OAuth client's, or a User-Agent. */
  client: string | null | undefined;
};

/**
 * Counts a read or a confirmed use on the usage page: one upsert into today's counters, off the
 * request's path (`writeUsageLater`). A statistic is never a reason to fail the call it counts,
 * so a failure is logged and swallowed.
 */
export function recordUsage(
  deps: Pick<Deps, "db" | "log">,
  event: UsageEvent,
): Promise<void> {
  return writeUsageLater(deps.db, () => upsertUsageLogged(deps, event));
}

async function upsertUsageLogged(deps: Pick<Deps, "db" | "log">, event: UsageEvent) {
  try {
    await upsertUsage(
      deps.db,
      {
        wikiId: event.wikiId,
        kind: event.kind,
        pagePath: event.page,
        pageKey: pathKey(event.page),
      },
      usageClient(event.client),
    );
  } catch (error) {
    deps.log.warn("usage not recorded", {
      wiki_id: event.wikiId,
      kind: event.kind,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * Counts a page read, by one rule for REST, MCP `get_page` and `fetch`: once per reading, at its
 * first slice (no `offset`; a `#Section` read counts), never for an `unchanged` answer, and only
 * once the read succeeded (call it after: a revision that was not kept is a 404, not a read).
 */
export async function recordRead(
  deps: Pick<Deps, "db" | "log">,
  read: { wikiId: string; page: string; client: string | null | undefined },
  slice: { offset?: number; unchanged?: boolean } = {},
): Promise<void> {
  if (slice.offset || slice.unchanged) return;
  await recordUsage(deps, { ...read, kind: "read" });
}

/** One search as made: the wikis it covered and the pages of results it showed. */
export type SearchEvent = UsageSource & {
  wikis: string[];
  query: string;
  /** The wiki of each result on the page shown. */
  results: { wiki: string }[];
  /** Set for a later page of the same results, which is not another search to list. */
  cursor?: string | null | undefined;
};

/**
 * Counts a search on the usage page of each wiki it concerns, the one rule for MCP, REST and the
 * web app: one wiki searched counts there; a search across many counts where it found pages.
 * The query is kept `RETENTION_DAYS` for the wiki's members, with how many pages it found
 * there. Searches are gathered in memory and written a batch at a time, one statement a
 * second per process at most (`batchUsageLater`), off the request's path; a failure is logged
 * and swallowed, as for `recordUsage`.
 */
export function recordSearch(deps: Pick<Deps, "db" | "log">, event: SearchEvent): Promise<void> {
  const counted = event.wikis.length === 1
    ? event.wikis
    : [...new Set(event.results.map((r) => r.wiki))];
  if (counted.length === 0) return Promise.resolve();
  const row: SearchUsageRow = {
    counts: counted.map((wikiId) => ({
      wikiId,
      results: event.results.filter((r) => r.wiki === wikiId).length,
    })),
    query: event.cursor ? null : event.query.slice(0, 1000),
    via: event.via,
    client: usageClient(event.client),
    at: new Date(),
  };
  batchUsageLater(deps.db, "search", row, (rows) => insertSearchesLogged(deps, rows));
  return Promise.resolve();
}

async function insertSearchesLogged(
  deps: Pick<Deps, "db" | "log">,
  rows: SearchUsageRow[],
): Promise<void> {
  try {
    await insertSearchUsage(deps.db, rows);
    // The prune's odds as before, one in `PRUNE_EVERY` kept searches.
    const kept = rows.filter((r) => r.query !== null).length;
    if (Math.random() < kept / PRUNE_EVERY) await deleteOldQueries(deps.db, RETENTION_DAYS);
  } catch (error) {
    deps.log.warn("usage not recorded", {
      wiki_id: [...new Set(rows.flatMap((r) => r.counts.map((c) => c.wikiId)))].join(","),
      kind: "search",
      searches: rows.length,
      error: error instanceof Error ? error.message : String(error),
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

import type { Deps } from "../deps.ts";
import { pathKey } from "../markdown/paths.ts";
import { upsertUsage, type UsageKind } from "./store.ts";

/** One call to count: a search of a wiki, or a read or confirmed use of one of its pages. */
export type UsageEvent = {
  wikiId: string;
  kind: UsageKind;
  /** The page's path, for reads and confirmed uses. */
  page?: string | null;
  /** The caller's name: an OAuth client's, or a User-Agent. */
  client: string | null | undefined;
};

/**
 * Counts a call on the usage page: one upsert into today's counters. A statistic is never a
 * reason to fail the call it counts, so a failure is logged and swallowed.
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
  } catch (error) {
    deps.log.warn("usage not recorded", {
      wiki_id: event.wikiId,
      kind: event.kind,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

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

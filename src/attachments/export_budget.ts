import type { Deps } from "../deps.ts";
import { RateLimitedError } from "../errors.ts";
import { countRequest } from "../limits/mod.ts";

/** An export budget's window: an hour. */
const WINDOW_SECONDS = 3600;

/**
 * Counts one export against its budget, apart from page views (an export reads every byte of
 * a wiki, a view one page): per address without a session (`EXPORTS_ANON_PER_HOUR`), per
 * account when signed in (`EXPORTS_PER_HOUR`). Over it, a 429 that says when to retry.
 */
export async function chargeExport(
  deps: Pick<Deps, "db" | "config">,
  accountId: string | null,
  ip: string,
): Promise<void> {
  const perHour = deps.config.files.exportsPerHour;
  const limit = accountId ? perHour.signedIn : perHour.anonymous;
  const key = accountId ? `export-account:${accountId}` : `export-ip:${ip}`;
  const counted = await countRequest(deps.db, key, WINDOW_SECONDS);
  if (counted.count <= limit) return;
  const elapsed = (counted.now.getTime() - counted.window_started_at.getTime()) / 1000;
  const resetSeconds = Math.max(1, Math.ceil(WINDOW_SECONDS - elapsed));
  throw new RateLimitedError(
    `Too many exports: at most ${limit} an hour from this ${
      accountId ? "account" : "address"
    }; try again in ${Math.ceil(resetSeconds / 60)} min`,
    { name: "exports", limit, windowSeconds: WINDOW_SECONDS, resetSeconds },
  );
}

import { z } from "zod";
import type { Deps } from "../deps.ts";
import { RateLimitedError } from "../errors.ts";
import { requirePath } from "../pages/write_page.ts";
import { insertReport, REPORT_KINDS, type Sender } from "./store.ts";
import { countRequest } from "../limits/mod.ts";

/** Longest note a report takes, in characters. */
export const MAX_REPORT_NOTE = 2000;

/**
 * Reports a caller may send an hour: a credential (per account or space token) gets more
 * than an anonymous address, whose reports owners did not ask for.
 */
export const REPORT_BUDGET = { signedIn: 30, anonymous: 10, windowSeconds: 3600 } as const;

/** What a problem report says. */
export const reportInput = z.object({
  page: z.string().min(1).max(400).describe(
    "The page the problem is about: its path or url (a page that should exist but does not, for `missing`)",
  ),
  kind: z.enum(REPORT_KINDS).describe(
    "wrong (says something false), outdated (was true once), missing (a page or part the wiki lacks), unclear",
  ),
  note: z.string().trim().min(1).max(MAX_REPORT_NOTE).describe(
    `What is wrong and, if you know, what is right (at most ${MAX_REPORT_NOTE} characters)`,
  ),
});

/** What a report returns. */
export const reportOutput = z.object({
  reported: z.boolean(),
  id: z.number().int(),
  page: z.string(),
  kind: z.enum(REPORT_KINDS),
  remaining: z.number().int().describe("Reports this caller may still send this hour"),
});

/**
 * Stores a report for the wiki's owners, charged against the caller's own small budget
 * (`budgetKey`: the account, token or address the request is counted as), apart from the
 * request budget so reports cannot crowd out reads or the other way round.
 */
export async function reportProblem(
  deps: Pick<Deps, "db">,
  wikiId: string,
  input: z.output<typeof reportInput>,
  sender: Sender,
  budgetKey: string,
): Promise<z.infer<typeof reportOutput>> {
  const page = requirePath(input.page);
  const limit = sender.accountId ? REPORT_BUDGET.signedIn : REPORT_BUDGET.anonymous;
  const counted = await countRequest(deps.db, `report:${budgetKey}`, REPORT_BUDGET.windowSeconds);
  if (counted.count > limit) {
    const elapsed = (counted.now.getTime() - counted.window_started_at.getTime()) / 1000;
    const resetSeconds = Math.max(1, Math.ceil(REPORT_BUDGET.windowSeconds - elapsed));
    throw new RateLimitedError(
      `Too many reports: at most ${limit} an hour from this ${
        sender.accountId ? "account" : "address"
      }; try again in ${resetSeconds} s`,
      { name: "reports", limit, windowSeconds: REPORT_BUDGET.windowSeconds, resetSeconds },
    );
  }
  const row = await insertReport(
    deps.db,
    { wikiId, page, kind: input.kind, note: input.note },
    sender,
  );
  return {
    reported: true,
    id: Number(row.id),
    page,
    kind: row.kind,
    remaining: Math.max(0, limit - counted.count),
  };
}

import { usageWritten } from "./usage_writes.ts";
import type { Db } from "../db/db.ts";
import {
  type AskedQuestion,
  type ClientUsage,
  type DailyUsage,
  type PageCount,
  type SearchMade,
  selectAskedQuestions,
  selectDailyUsage,
  selectRecentNotes,
  selectSearchQueries,
  selectTopPages,
  selectUsageByClient,
  type UseNote,
} from "./store.ts";

/** Questions the wiki did not answer, or answered in part, that one page would answer. */
export type CoverageGap = {
  /** The page to write: the unwritten page's path, or the questions' words. */
  title: string;
  /** True when pages already link to it (a red link). */
  linked: boolean;
  /** How often it was asked in the period. */
  asked: number;
  /** How many of those the wiki could not answer at all. */
  unanswered: number;
  lastAsked: Date;
  /** The different questions, newest first. */
  questions: string[];
  /** The words no passage held, as asked. */
  missing: string[];
};

/** A wiki's usage over the last `days`, as the usage page shows it. */
export type UsageReport = {
  daily: DailyUsage[];
  confirmed: PageCount[];
  read: PageCount[];
  clients: ClientUsage[];
  notes: UseNote[];
  questions: AskedQuestion[];
  searches: SearchMade[];
  gaps: CoverageGap[];
};

/** Most unanswered questions the gaps are grouped from. */
const GAP_QUESTIONS = 1000;
/** Questions and missing words shown per gap. */
const PER_GAP = 5;

/**
 * A wiki's usage over the last `days`: searches, questions, reads and confirmed uses by day,
 * the most confirmed and most read pages (`topPages` of each), uses by client, the latest
 * notes, questions and searches (`limits.questions` of each), and the coverage gaps.
 */
export async function usageReport(
  db: Db,
  wikiId: string,
  days: number,
  limits: { topPages: number; notes: number; questions: number; gaps: number },
): Promise<UsageReport> {
  // Counts this process still has in flight are part of what the page shows.
  await usageWritten(db);
  const [daily, confirmed, read, clients, notes, questions, searches, weak] = await Promise.all([
    selectDailyUsage(db, wikiId, days),
    selectTopPages(db, wikiId, "confirm", days, limits.topPages),
    selectTopPages(db, wikiId, "read", days, limits.topPages),
    selectUsageByClient(db, wikiId, days),
    selectRecentNotes(db, wikiId, days, limits.notes),
    selectAskedQuestions(db, wikiId, days, limits.questions, false),
    selectSearchQueries(db, wikiId, days, limits.questions),
    selectAskedQuestions(db, wikiId, days, GAP_QUESTIONS, true),
  ]);
  return {
    daily,
    confirmed,
    read,
    clients,
    notes,
    questions,
    searches,
    gaps: groupGaps(weak).slice(0, limits.gaps),
  };
}

/**
 * The questions (newest first) grouped by their gap key, most asked first, then most
 * recently asked. A group is titled by the shortest title its questions suggest.
 */
export function groupGaps(rows: AskedQuestion[]): CoverageGap[] {
  const groups = new Map<string, CoverageGap>();
  for (const row of rows) {
    let gap = groups.get(row.gap_key);
    if (!gap) {
      gap = {
        title: row.gap_title,
        linked: row.gap_key.startsWith("page:"),
        asked: 0,
        unanswered: 0,
        lastAsked: row.created_at,
        questions: [],
        missing: [],
      };
      groups.set(row.gap_key, gap);
    }
    gap.asked++;
    if (row.gap_title.length < gap.title.length) gap.title = row.gap_title;
    if (row.coverage === "unsupported") gap.unanswered++;
    if (gap.questions.length < PER_GAP && !gap.questions.includes(row.question)) {
      gap.questions.push(row.question);
    }
    for (const word of row.missing) {
      if (gap.missing.length < PER_GAP && !gap.missing.includes(word)) gap.missing.push(word);
    }
  }
  return [...groups.values()].sort((a, b) =>
    b.asked - a.asked || b.lastAsked.getTime() - a.lastAsked.getTime()
  );
}

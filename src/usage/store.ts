import type { Db } from "../db/db.ts";

/** What assistants do that the usage page counts. */
export type UsageKind = "search" | "read" | "confirm" | "ask";

/** One day of a wiki's usage, every kind counted. */
export type DailyUsage = {
  day: string;
  searches: number;
  asks: number;
  reads: number;
  confirms: number;
};

/** A page with how often it was read or confirmed; `exists` is false once it was deleted. */
export type PageCount = { path: string; count: number; exists: boolean };

/** A client with its counts of each kind. */
export type ClientUsage = {
  client: string;
  searches: number;
  asks: number;
  reads: number;
  confirms: number;
};

/** A note an assistant left with a confirmed use. */
export type UseNote = {
  page_path: string;
  note: string;
  client_name: string | null;
  created_at: Date;
};

/**
 * Adds one to today's (UTC) counter of a wiki, kind, page and client. The page is found by
 * its path key, in the same statement; its path is kept for when the page is gone.
 */
export async function upsertUsage(
  db: Db,
  row: { wikiId: string; kind: UsageKind; pagePath: string | null; pageKey: string | null },
  client: string,
): Promise<void> {
  // Asynchronous commit, as for every usage count (see `insertSearchUsage`).
  await db`
    INSERT INTO usage_daily AS u (wiki_id, day, kind, page_id, page_path, client, count)
    SELECT ${row.wikiId}::text, (now() AT TIME ZONE 'UTC')::date, ${row.kind}::text,
      (SELECT id FROM pages WHERE wiki_id = ${row.wikiId}::text AND path_key = ${row.pageKey}::text),
      ${row.pagePath}::text, ${client}::text, 1
    FROM (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed
    ON CONFLICT (wiki_id, day, kind, page_id, client)
    DO UPDATE SET count = u.count + 1, page_path = coalesce(EXCLUDED.page_path, u.page_path)`;
}

/** Each of the last `days` days (UTC, today included), oldest first, with zeros filled in. */
export function selectDailyUsage(db: Db, wikiId: string, days: number): Promise<DailyUsage[]> {
  return db<DailyUsage>`
    SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
      coalesce(sum(u.count) FILTER (WHERE u.kind = 'search'), 0)::int AS searches,
      coalesce(sum(u.count) FILTER (WHERE u.kind = 'ask'), 0)::int AS asks,
      coalesce(sum(u.count) FILTER (WHERE u.kind = 'read'), 0)::int AS reads,
      coalesce(sum(u.count) FILTER (WHERE u.kind = 'confirm'), 0)::int AS confirms
    FROM generate_series(
      (now() AT TIME ZONE 'UTC')::date - ${days - 1}::int,
      (now() AT TIME ZONE 'UTC')::date,
      interval '1 day'
    ) AS d(day)
    LEFT JOIN usage_daily u ON u.wiki_id = ${wikiId} AND u.day = d.day::date
    GROUP BY d.day
    ORDER BY d.day`;
}

/** The pages most often read or confirmed in the last `days` days, most first. */
export function selectTopPages(
  db: Db,
  wikiId: string,
  kind: "read" | "confirm",
  days: number,
  limit: number,
): Promise<PageCount[]> {
  return db<PageCount>`
    SELECT coalesce(p.path, max(u.page_path), '') AS path, sum(u.count)::int AS count,
      p.id IS NOT NULL AS "exists"
    FROM usage_daily u LEFT JOIN pages p ON p.id = u.page_id
    WHERE u.wiki_id = ${wikiId} AND u.kind = ${kind}
      AND u.day > (now() AT TIME ZONE 'UTC')::date - ${days}::int
    GROUP BY u.page_id, p.id, p.path
    ORDER BY count DESC, path
    LIMIT ${limit}`;
}

/** Every client seen in the last `days` days with its counts, busiest first. */
export function selectUsageByClient(
  db: Db,
  wikiId: string,
  days: number,
): Promise<ClientUsage[]> {
  return db<ClientUsage>`
    SELECT client,
      coalesce(sum(count) FILTER (WHERE kind = 'search'), 0)::int AS searches,
      coalesce(sum(count) FILTER (WHERE kind = 'ask'), 0)::int AS asks,
      coalesce(sum(count) FILTER (WHERE kind = 'read'), 0)::int AS reads,
      coalesce(sum(count) FILTER (WHERE kind = 'confirm'), 0)::int AS confirms
    FROM usage_daily
    WHERE wiki_id = ${wikiId} AND day > (now() AT TIME ZONE 'UTC')::date - ${days}::int
    GROUP BY client
    ORDER BY sum(count) DESC, client
    LIMIT 100`;
}

/** The latest notes assistants left with confirmed uses (`confirm_use`), newest first. */
export function selectRecentNotes(
  db: Db,
  wikiId: string,
  days: number,
  limit: number,
): Promise<UseNote[]> {
  return db<UseNote>`
    SELECT page_path, note, client_name, created_at
    FROM page_uses
    WHERE wiki_id = ${wikiId} AND note IS NOT NULL AND note <> ''
      AND created_at > now() - make_interval(days => ${days}::int)
    ORDER BY created_at DESC
    LIMIT ${limit}`;
}

/** Where a question was asked or a search made. */
type Via = "mcp" | "rest" | "web";

/**
 * Who asked or searched: the surface and, when known, the client's name and the key the caller
 * is counted on (`asker`: a session, token or address; a question is recorded once per asking
 * of the same asker).
 */
export type UsageSource = {
  via: Via;
  client: string | null | undefined;
  asker?: string | null | undefined;
};

/** A question asked of a wiki, as the usage page lists it. */
export type AskedQuestion = {
  question: string;
  coverage: "supported" | "partial" | "unsupported";
  gap_key: string;
  gap_title: string;
  missing: string[];
  via: Via;
  client: string;
  created_at: Date;
  /** How often the same question (case and spacing aside) was asked in the period listed. */
  times: number;
};

/** How long a repeat of the same question by the same asker is the same asking. */
export const SAME_ASKING_MINUTES = 10;

/**
 * Counts a question in today's (UTC) counters and keeps it with its verdict and coverage-gap
 * group: one statement, so the count and the question are kept or lost together.
 */
export async function insertAskQuestion(
  db: Db,
  row: Omit<AskedQuestion, "created_at" | "times"> & { wikiId: string; asker: string | null },
): Promise<boolean> {
  const kept = await db`
    WITH kept AS (
      INSERT INTO ask_questions
        (wiki_id, question, coverage, gap_key, gap_title, missing, via, client, asker)
      SELECT ${row.wikiId}, ${row.question}, ${row.coverage}, ${row.gap_key}, ${row.gap_title},
        ${row.missing}::text[], ${row.via}, ${row.client}, ${row.asker}::text
      -- the same asker asking the same question again a moment later: the same asking
      WHERE ${row.asker}::text IS NULL OR NOT EXISTS (
        SELECT 1 FROM ask_questions q
        WHERE q.wiki_id = ${row.wikiId} AND q.asker = ${row.asker}::text
          AND q.created_at > now() - make_interval(mins => ${SAME_ASKING_MINUTES})
          AND lower(regexp_replace(btrim(q.question), '[[:space:]]+', ' ', 'g')) =
            lower(regexp_replace(btrim(${row.question}::text), '[[:space:]]+', ' ', 'g')))
      RETURNING 1
    ), counted AS (
      INSERT INTO usage_daily AS u (wiki_id, day, kind, page_id, page_path, client, count)
      SELECT ${row.wikiId}, (now() AT TIME ZONE 'UTC')::date, 'ask', NULL, NULL, ${row.client}, 1
      FROM kept
      ON CONFLICT (wiki_id, day, kind, page_id, client) DO UPDATE SET count = u.count + 1
      RETURNING 1
    )
    SELECT 1 FROM kept`;
  return kept.length > 0;
}

/** Deletes the questions asked and the searches made more than `days` ago, in every wiki. */
export async function deleteOldQueries(db: Db, days: number): Promise<void> {
  await db`
    WITH asked AS (
      DELETE FROM ask_questions WHERE created_at < now() - make_interval(days => ${days}::int)
    )
    DELETE FROM search_queries WHERE created_at < now() - make_interval(days => ${days}::int)`;
}

/**
 * The latest questions of the last `days` days, newest first: all of them, or (`gaps`) only
 * those the wiki did not answer or answered in part, or that point to a page nobody wrote.
 */
export function selectAskedQuestions(
  db: Db,
  wikiId: string,
  days: number,
  limit: number,
  gaps: boolean,
): Promise<AskedQuestion[]> {
  // The list shows each question once, with how often it was asked; gaps count every asking.
  return db<AskedQuestion>`
    SELECT question, coverage, gap_key, gap_title, missing, via, client, created_at,
      CASE WHEN ${gaps}::boolean THEN 1 ELSE times END AS times
    FROM (
      SELECT *,
        (count(*) OVER same)::int AS times,
        row_number() OVER (same ORDER BY created_at DESC, id DESC) AS nth
      FROM ask_questions
      WHERE wiki_id = ${wikiId} AND created_at > now() - make_interval(days => ${days}::int)
        AND (NOT ${gaps}::boolean OR coverage <> 'supported' OR gap_key LIKE 'page:%')
      WINDOW same AS (PARTITION BY lower(regexp_replace(btrim(question), '[[:space:]]+', ' ', 'g')))
    ) asked
    WHERE ${gaps}::boolean OR nth = 1
    ORDER BY created_at DESC, id DESC
    LIMIT ${limit}`;
}

/** A search made in a wiki, as the usage page lists it. */
export type SearchMade = {
  query: string;
  results: number;
  via: Via;
  client: string;
  created_at: Date;
};

/** One search to count: the wikis it concerns, with the pages it found in each. */
export type SearchUsageRow = {
  counts: { wikiId: string; results: number }[];
  /** Null for a later page of the same results: counted, not kept. */
  query: string | null;
  via: SearchMade["via"];
  client: string;
  at: Date;
};

/**
 * Counts searches in the (UTC) day's counters of each wiki they concern and keeps their queries
 * (unless null) with how many pages each found there: one statement for a whole batch of
 * searches (`recordSearch` gathers them), counters added up per wiki, day and client. Each
 * search keeps its own time. A wiki deleted meanwhile is skipped, not a failure of the batch.
 */
export async function insertSearchUsage(db: Db, rows: SearchUsageRow[]): Promise<void> {
  const flat = rows.flatMap((r) => r.counts.map((c) => ({ ...r, ...c })));
  if (flat.length === 0) return;
  // Committed without waiting for the WAL flush (`synchronous_commit` off in this statement's
  // own transaction): a count is not worth an fsync, and a crash of the database forgets at
  // most the last ~0.6 s of counts (3 × wal_writer_delay), never corrupts.
  await db`
    WITH searched AS (
      SELECT s.* FROM unnest(${flat.map((r) => r.wikiId)}::text[],
        ${flat.map((r) => r.results)}::int[], ${flat.map((r) => r.query)}::text[],
        ${flat.map((r) => r.via)}::text[], ${flat.map((r) => r.client)}::text[],
        ${flat.map((r) => r.at.toISOString())}::timestamptz[])
        AS s(wiki_id, results, query, via, client, at)
      JOIN wikis w ON w.id = s.wiki_id,
        (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed
    ), kept AS (
      INSERT INTO search_queries (wiki_id, query, results, via, client, created_at)
      SELECT wiki_id, query, results, via, client, at
      FROM searched WHERE query IS NOT NULL
    )
    INSERT INTO usage_daily AS u (wiki_id, day, kind, page_id, page_path, client, count)
    SELECT wiki_id, (at AT TIME ZONE 'UTC')::date, 'search', NULL, NULL, client, count(*)
    FROM searched GROUP BY wiki_id, (at AT TIME ZONE 'UTC')::date, client
    ON CONFLICT (wiki_id, day, kind, page_id, client) DO UPDATE SET count = u.count + EXCLUDED.count`;
}

/** The latest searches of the last `days` days, newest first. */
export function selectSearchQueries(
  db: Db,
  wikiId: string,
  days: number,
  limit: number,
): Promise<SearchMade[]> {
  return db<SearchMade>`
    SELECT query, results, via, client, created_at
    FROM search_queries
    WHERE wiki_id = ${wikiId} AND created_at > now() - make_interval(days => ${days}::int)
    ORDER BY created_at DESC, id DESC
    LIMIT ${limit}`;
}

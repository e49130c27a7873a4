import type { Db } from "../db/db.ts";

/** The kinds of problem an assistant can report about a page. */
export const REPORT_KINDS = ["wrong", "outdated", "missing", "unclear"] as const;

/** A problem report as stored. */
export type ReportRow = {
  id: number;
  wiki_id: string;
  page_path: string;
  kind: typeof REPORT_KINDS[number];
  note: string;
  account_id: string | null;
  credential_kind: string | null;
  client_name: string | null;
  created_at: Date;
  resolved_at: Date | null;
  resolved_by: string | null;
};

/** Who sent something: the account (null when anonymous), how, and the client's name. */
export type Sender = {
  accountId: string | null;
  credentialKind: string | null;
  credentialId: string | null;
  clientName: string | null;
};

/** Stores a report. */
export async function insertReport(
  db: Db,
  report: { wikiId: string; page: string; kind: ReportRow["kind"]; note: string },
  sender: Sender,
): Promise<ReportRow> {
  const rows = await db<ReportRow>`
    INSERT INTO page_reports (wiki_id, page_path, kind, note, account_id, credential_kind, client_name)
    VALUES (${report.wikiId}, ${report.page}, ${report.kind}, ${report.note}, ${sender.accountId},
            ${sender.credentialKind}, ${sender.clientName})
    RETURNING *`;
  return rows[0]!;
}

/** A wiki's reports, open ones first, newest first within each. */
export function selectReports(db: Db, wikiId: string, limit: number): Promise<ReportRow[]> {
  return db<ReportRow>`
    SELECT * FROM page_reports WHERE wiki_id = ${wikiId}
    ORDER BY (resolved_at IS NULL) DESC, created_at DESC, id DESC
    LIMIT ${limit}`;
}

/** Marks an open report resolved; false when the wiki has no such open report. */
export async function resolveReportRow(
  db: Db,
  wikiId: string,
  id: number,
  accountId: string,
): Promise<boolean> {
  const rows = await db`
    UPDATE page_reports SET resolved_at = now(), resolved_by = ${accountId}
    WHERE id = ${id} AND wiki_id = ${wikiId} AND resolved_at IS NULL
    RETURNING 1`;
  return rows.length > 0;
}

/**
 * Resolves the open "outdated" reports on a page filed no later than `filedBy` (an accepted
 * proposal's time: the edit answers what was known then); returns how many it closed.
 */
export async function resolveOutdatedReports(
  db: Db,
  wikiId: string,
  page: string,
  filedBy: Date,
  accountId: string,
): Promise<number> {
  const rows = await db`
    UPDATE page_reports SET resolved_at = now(), resolved_by = ${accountId}
    WHERE wiki_id = ${wikiId} AND lower(page_path) = lower(${page}) AND kind = 'outdated'
      AND resolved_at IS NULL AND created_at <= ${filedBy}
    RETURNING 1`;
  return rows.length;
}

/** A proposed edit as stored. */
export type ChangeRequestRow = {
  id: number;
  wiki_id: string;
  page_path: string;
  base_revision: number;
  markdown: string;
  summary: string;
  status: "open" | "accepted" | "declined" | "applied";
  proposer_account_id: string | null;
  proposer_name: string | null;
  proposer_email: string | null;
  credential_kind: string;
  credential_id: string;
  client_name: string | null;
  created_at: Date;
  decided_at: Date | null;
  decided_by: string | null;
  decision_note: string | null;
  result_revision: number | null;
};

/** Stores a proposal, open (or already `applied`, for a token with direct writes). */
export async function insertChangeRequest(
  db: Db,
  proposal: {
    wikiId: string;
    page: string;
    baseRevision: number;
    markdown: string;
    summary: string;
    status: "open" | "applied";
    resultRevision: number | null;
  },
  sender: Sender & { credentialKind: string; credentialId: string },
): Promise<number> {
  const rows = await db<{ id: number }>`
    INSERT INTO change_requests (wiki_id, page_path, base_revision, markdown, summary, status,
      proposer_account_id, credential_kind, credential_id, client_name, result_revision, decided_at)
    VALUES (${proposal.wikiId}, ${proposal.page}, ${proposal.baseRevision}, ${proposal.markdown},
            ${proposal.summary}, ${proposal.status}, ${sender.accountId}, ${sender.credentialKind},
            ${sender.credentialId}, ${sender.clientName}, ${proposal.resultRevision},
            ${proposal.status === "applied" ? new Date() : null})
    RETURNING id`;
  return Number(rows[0]!.id);
}

/** A wiki's proposals, open ones first, newest first within each, without their text. */
export function selectChangeRequests(
  db: Db,
  wikiId: string,
  limit: number,
): Promise<ChangeRequestRow[]> {
  return db<ChangeRequestRow>`
    SELECT c.*, a.name AS proposer_name, a.email AS proposer_email
    FROM change_requests c LEFT JOIN accounts a ON a.id = c.proposer_account_id
    WHERE c.wiki_id = ${wikiId}
    ORDER BY (c.status = 'open') DESC, c.created_at DESC, c.id DESC
    LIMIT ${limit}`;
}

/** One proposal of a wiki, or null. */
export async function selectChangeRequest(
  db: Db,
  wikiId: string,
  id: number,
): Promise<ChangeRequestRow | null> {
  const rows = await db<ChangeRequestRow>`
    SELECT c.*, a.name AS proposer_name, a.email AS proposer_email
    FROM change_requests c LEFT JOIN accounts a ON a.id = c.proposer_account_id
    WHERE c.wiki_id = ${wikiId} AND c.id = ${id}`;
  return rows[0] ?? null;
}

/**
 * Closes an open proposal as accepted or declined; false when it was no longer open (someone
 * decided it meanwhile).
 */
export async function decideChangeRequest(
  db: Db,
  id: number,
  decision: {
    status: "accepted" | "declined";
    by: string;
    note: string | null;
    resultRevision: number | null;
  },
): Promise<boolean> {
  const rows = await db`
    UPDATE change_requests SET status = ${decision.status}, decided_at = now(),
      decided_by = ${decision.by}, decision_note = ${decision.note},
      result_revision = ${decision.resultRevision}
    WHERE id = ${id} AND status = 'open'
    RETURNING 1`;
  return rows.length > 0;
}

/** How many proposals of a wiki wait for a person. */
export async function countOpenChangeRequests(db: Db, wikiId: string): Promise<number> {
  const rows = await db<{ n: number }>`
    SELECT count(*)::int AS n FROM change_requests WHERE wiki_id = ${wikiId} AND status = 'open'`;
  return rows[0]?.n ?? 0;
}

/** What a credential was granted: a token's scope and direct-write flag, an OAuth grant's scope. */
export async function selectCredentialGrant(
  db: Db,
  kind: "account_token" | "space_token" | "oauth",
  id: string,
): Promise<{ scope: string; direct_writes: boolean } | null> {
  const rows = kind === "oauth"
    ? await db<{ scope: string; direct_writes: boolean }>`
      SELECT scope, false AS direct_writes FROM oauth_grants WHERE id = ${id}`
    : await db<{ scope: string; direct_writes: boolean }>`
      SELECT scope, direct_writes FROM tokens WHERE id = ${id}`;
  return rows[0] ?? null;
}

/** Whether a wiki lets assistants propose edits. */
export async function selectAgentProposals(db: Db, wikiId: string): Promise<boolean> {
  const rows = await db<{ agent_proposals: boolean }>`
    SELECT agent_proposals FROM wikis WHERE id = ${wikiId}`;
  return rows[0]?.agent_proposals ?? false;
}

/** Turns agents' proposals to a wiki on or off. */
export async function updateAgentProposals(db: Db, wikiId: string, on: boolean): Promise<void> {
  await db`UPDATE wikis SET agent_proposals = ${on} WHERE id = ${wikiId}`;
}

/** A space token that may propose to its space, as the space's owners manage it. */
export type WriterTokenRow = {
  id: string;
  name: string;
  owner_name: string | null;
  owner_email: string;
  direct_writes: boolean;
};

/** The live space tokens of a wiki with the `read_propose` scope. */
export function selectWriterTokens(db: Db, wikiId: string): Promise<WriterTokenRow[]> {
  return db<WriterTokenRow>`
    SELECT t.id, t.name, a.name AS owner_name, a.email AS owner_email, t.direct_writes
    FROM tokens t JOIN accounts a ON a.id = t.account_id
    WHERE t.wiki_id = ${wikiId} AND t.scope = 'read_propose' AND t.revoked_at IS NULL
      AND (t.expires_at IS NULL OR t.expires_at > now())
    ORDER BY t.created_at`;
}

/**
 * Sets a token's direct-write flag, for a space token of this wiki only (an account token
 * spans spaces, so one space's owner cannot let it write straight into all of them).
 */
export async function updateDirectWrites(
  db: Db,
  wikiId: string,
  tokenId: string,
  on: boolean,
): Promise<boolean> {
  const rows = await db`
    UPDATE tokens SET direct_writes = ${on}
    WHERE id = ${tokenId} AND wiki_id = ${wikiId} AND scope = 'read_propose' AND revoked_at IS NULL
    RETURNING 1`;
  return rows.length > 0;
}

/** Opens an accepted proposal again (its write failed, e.g. the page moved on meanwhile). */
export async function reopenChangeRequest(db: Db, id: number): Promise<void> {
  await db`
    UPDATE change_requests SET status = 'open', decided_at = NULL, decided_by = NULL
    WHERE id = ${id} AND status = 'accepted' AND result_revision IS NULL`;
}

/** Notes the revision an accepted proposal made. */
export async function setResultRevision(db: Db, id: number, revision: number): Promise<void> {
  await db`UPDATE change_requests SET result_revision = ${revision} WHERE id = ${id}`;
}

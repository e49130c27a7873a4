import type { Db } from "../db/db.ts";
import {
  type ChangeRequestRow,
  type ReportRow,
  resolveReportRow,
  selectAgentProposals,
  selectChangeRequest,
  selectChangeRequests,
  selectReports,
  selectWriterTokens,
  updateAgentProposals,
  updateDirectWrites,
  type WriterTokenRow,
} from "./store.ts";

/** A wiki's reports, open ones first, newest first within each. */
export function listReports(db: Db, wikiId: string, limit: number): Promise<ReportRow[]> {
  return selectReports(db, wikiId, limit);
}

/** Marks an open report resolved by this account; false when the wiki has no such open report. */
export function resolveReport(
  db: Db,
  wikiId: string,
  id: number,
  accountId: string,
): Promise<boolean> {
  return resolveReportRow(db, wikiId, id, accountId);
}

/** A wiki's proposals, open ones first, newest first within each, without their text. */
export function listProposals(db: Db, wikiId: string, limit: number): Promise<ChangeRequestRow[]> {
  return selectChangeRequests(db, wikiId, limit);
}

/** One proposal of the wiki, with its text and who proposed it, or null. */
export function findProposal(db: Db, wikiId: string, id: number): Promise<ChangeRequestRow | null> {
  return selectChangeRequest(db, wikiId, id);
}

/** Whether the wiki lets assistants propose edits. */
export function agentProposalsOn(db: Db, wikiId: string): Promise<boolean> {
  return selectAgentProposals(db, wikiId);
}

/** Turns agents' proposals to the wiki on or off. */
export function setAgentProposals(db: Db, wikiId: string, on: boolean): Promise<void> {
  return updateAgentProposals(db, wikiId, on);
}

/** The live space tokens of the wiki that may propose, as its owners manage them. */
export function writerTokens(db: Db, wikiId: string): Promise<WriterTokenRow[]> {
  return selectWriterTokens(db, wikiId);
}

/** Lets a space token of this wiki write directly (or not); false for any other token. */
export function setDirectWrites(
  db: Db,
  wikiId: string,
  tokenId: string,
  on: boolean,
): Promise<boolean> {
  return updateDirectWrites(db, wikiId, tokenId, on);
}

export type { ChangeRequestRow, ReportRow, WriterTokenRow };

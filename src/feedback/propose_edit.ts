import { z } from "zod";
import type { Credential } from "../access/credential.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { pathKey } from "../markdown/paths.ts";
import { parseOrThrow, requireNewPath, requirePath, writePage } from "../pages/write_page.ts";
import { mayPropose } from "./may_propose.ts";
import {
  type ChangeRequestRow,
  decideChangeRequest,
  insertChangeRequest,
  reopenChangeRequest,
  resolveOutdatedReports,
  selectChangeRequest,
  setResultRevision,
} from "./store.ts";
import { selectPage } from "../pages/mod.ts";

/** Longest page text an assistant may propose, in characters. */
export const MAX_PROPOSAL_CHARS = 200_000;

/** A proposed edit: the page, its whole new markdown, and the revision it starts from. */
export const proposeInput = z.object({
  page: z.string().min(1).max(400).describe("The page's path, e.g. Guides/Setup (new or existing)"),
  markdown: z.string().min(1).max(MAX_PROPOSAL_CHARS).describe(
    "The page's whole new text as markdown (first heading is the title)",
  ),
  base_revision: z.number().int().min(0).describe(
    "The revision you started from (from get_page); 0 proposes a new page",
  ),
  summary: z.string().trim().max(500).default("").describe(
    "One line for the reviewer: what changed and why",
  ),
});

/** What a proposal returns. */
export const proposeOutput = z.object({
  status: z.enum(["open", "applied"]).describe(
    "open: waits for a person to accept it; applied: written at once (a token with direct writes)",
  ),
  id: z.number().int(),
  page: z.string(),
  revision: z.number().int().nullable().describe("The page's new revision, when applied"),
  review_url: z.string(),
});

/** Who proposes: the credential (its account is credited) and the client's name. */
export type Proposer = { credential: Credential; clientName: string | null };

/**
 * Records an agent's edit as a change request for the space's owners, or, for a space token
 * whose owner turned on direct writes, writes it at once (still recorded). Refused with
 * `forbidden` when the credential or the space does not allow proposals (`mayPropose`).
 */
export async function proposeEdit(
  deps: Deps,
  wikiId: string,
  input: z.output<typeof proposeInput>,
  proposer: Proposer,
): Promise<z.infer<typeof proposeOutput>> {
  const decision = await mayPropose(deps.db, proposer.credential, wikiId);
  if (!decision.ok) throw new AppError("forbidden", decision.reason);
  const asked = requirePath(input.page);
  const current = await selectPage(deps.db, wikiId, pathKey(asked));
  const page = current?.path ?? requireNewPath(asked);
  if (!current && input.base_revision !== 0) {
    throw new AppError(
      "page_not_found",
      `Page "${page}" does not exist: propose it as a new page with base_revision 0`,
    );
  }
  if (current && input.base_revision > current.revision) {
    throw new AppError(
      "bad_request",
      `Page "${page}" is at revision ${current.revision}, so base_revision ${input.base_revision} cannot be right`,
    );
  }
  if (current && input.base_revision === 0) {
    throw new AppError(
      "page_exists",
      `Page "${page}" exists (revision ${current.revision}): pass the revision you read as base_revision`,
    );
  }
  await parseOrThrow(page, input.markdown);
  const sender = {
    accountId: proposer.credential.accountId,
    credentialKind: proposer.credential.kind,
    credentialId: proposer.credential.id,
    clientName: proposer.clientName,
  };
  let revision: number | null = null;
  if (decision.direct) {
    const outcome = await writePage(deps, {
      wikiId,
      path: page,
      markdown: input.markdown,
      baseRevision: input.base_revision,
    }, {
      author: proposer.credential.accountId,
      source: "proposal",
      proposedBy: proposer.credential.accountId,
      proposedClient: proposer.clientName,
    });
    revision = outcome.page.revision;
  }
  const id = await insertChangeRequest(deps.db, {
    wikiId,
    page,
    baseRevision: input.base_revision,
    markdown: input.markdown,
    summary: input.summary,
    status: decision.direct ? "applied" : "open",
    resultRevision: revision,
  }, sender);
  return {
    status: decision.direct ? "applied" : "open",
    id,
    page,
    revision,
    review_url: proposalUrl(deps.config.baseUrl, wikiId, id),
  };
}

/** Where the owners review a proposal. */
export function proposalUrl(base: string, wikiId: string, id: number): string {
  return `${base}/w/${wikiId}/-/proposals/${id}`;
}

/** An open proposal of the wiki, or `not_found` (decided ones cannot be decided again). */
export async function openProposal(
  deps: Pick<Deps, "db">,
  wikiId: string,
  id: number,
): Promise<ChangeRequestRow> {
  const row = await selectChangeRequest(deps.db, wikiId, id);
  if (!row) throw new AppError("not_found", `Proposal ${id} not found in "${wikiId}"`);
  if (row.status !== "open") {
    throw new AppError("bad_request", `Proposal ${id} is already ${row.status}`);
  }
  return row;
}

/**
 * Accepts a proposal as a new revision through the normal write path, with `markdown` as the
 * reviewer left it (edit, then accept), credited to the reviewer as author and to the proposer
 * and client as proposers. `seenRevision` is the page revision the reviewer compared against:
 * if the page moved on since, the write fails with `revision_conflict` and the proposal stays
 * open. The proposal is claimed first, so two reviewers cannot both apply it.
 */
export async function acceptProposal(
  deps: Deps,
  wikiId: string,
  id: number,
  review: { reviewerId: string; markdown: string; seenRevision: number },
): Promise<{ page: string; revision: number }> {
  const row = await openProposal(deps, wikiId, id);
  const claimed = await decideChangeRequest(deps.db, id, {
    status: "accepted",
    by: review.reviewerId,
    note: null,
    resultRevision: null,
  });
  if (!claimed) throw new AppError("bad_request", `Proposal ${id} was decided meanwhile`);
  try {
    const outcome = await writePage(deps, {
      wikiId,
      path: row.page_path,
      markdown: review.markdown,
      baseRevision: review.seenRevision,
    }, {
      author: review.reviewerId,
      source: "proposal",
      proposedBy: row.proposer_account_id,
      proposedClient: row.client_name,
    });
    await setResultRevision(deps.db, id, outcome.page.revision);
    // The page is brought up to date: the "outdated" reports it answers are closed with it.
    await resolveOutdatedReports(
      deps.db,
      wikiId,
      row.page_path,
      new Date(row.created_at),
      review.reviewerId,
    );
    return { page: outcome.page.path, revision: outcome.page.revision };
  } catch (error) {
    await reopenChangeRequest(deps.db, id);
    throw error;
  }
}

/** Declines a proposal with the reviewer's note; nothing is written. */
export async function declineProposal(
  deps: Pick<Deps, "db">,
  wikiId: string,
  id: number,
  review: { reviewerId: string; note: string },
): Promise<void> {
  await openProposal(deps, wikiId, id);
  const note = review.note.trim().slice(0, 2000) || null;
  const done = await decideChangeRequest(deps.db, id, {
    status: "declined",
    by: review.reviewerId,
    note,
    resultRevision: null,
  });
  if (!done) throw new AppError("bad_request", `Proposal ${id} was decided meanwhile`);
}

import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { pathKey } from "../markdown/paths.ts";
import { webErrorHandler } from "../kit/web/web_error_handler.tsx";
import { lineDiff } from "../spaces/line_diff.ts";
import { formMarkdown, formText, openSpace, revisionParam } from "../kit/web/space_context.ts";
import { pageHref, toolHref } from "../kit/web/space_urls.ts";
import type { SpaceView } from "../kit/web/wiki_frame.tsx";
import { FeedbackPage } from "./feedback_page.tsx";
import { ProposalPage } from "./proposal_page.tsx";
import { acceptProposal, declineProposal } from "./propose_edit.ts";
import type { ChangeRequestRow } from "./feedback_review.ts";
import {
  resolveReportRow,
  selectAgentProposals,
  selectChangeRequest,
  selectChangeRequests,
  selectReports,
  selectWriterTokens,
  updateAgentProposals,
  updateDirectWrites,
} from "./mod.ts";
import { selectPage, selectRevision } from "../pages/mod.ts";

const SHOWN = 200;

/**
 * `/w/<id>/-/feedback` (what assistants reported and proposed, for owners and admins) and
 * `/w/<id>/-/proposals/<n>` (reviewing one proposal: accept, edit then accept, decline).
 */
export function feedbackRoutes(deps: Deps): Hono {
  const app = new Hono();

  reportRoutes(app, deps);
  proposalRoutes(app, deps);

  app.onError(webErrorHandler(deps, { signInNext: true }));
  return app;
}

/** The feedback page: reports, their resolution, and its settings. */
function reportRoutes(app: Hono, deps: Deps): void {
  app.get("/w/:id/-/feedback", async (c) => {
    const view = await openSpace(deps, c, "admin");
    return c.html(await feedbackPage(deps, view, c.req.query("done")));
  });

  app.post("/w/:id/-/feedback/reports/:n/resolve", async (c) => {
    const view = await openSpace(deps, c, "admin");
    const id = view.space.wiki.id;
    if (!await resolveReportRow(deps.db, id, numberParam(c, "n"), view.account!.id)) {
      throw new AppError("not_found", `Open report ${c.req.param("n")} not found in "${id}"`);
    }
    return c.redirect(toolHref(id, "feedback", { done: "resolved" }), 303);
  });

  app.post("/w/:id/-/feedback/settings", async (c) => {
    const view = await openSpace(deps, c, "admin");
    const form = await c.req.parseBody();
    const on = formText(form.proposals) === "on";
    await updateAgentProposals(deps.db, view.space.wiki.id, on);
    return c.redirect(toolHref(view.space.wiki.id, "feedback", { done: "settings" }), 303);
  });

  app.post("/w/:id/-/feedback/tokens/:token", async (c) => {
    // Owners only: letting a token publish without review is the space's owner's call.
    const view = await openSpace(deps, c, "admin");
    if (view.space.role !== "owner") {
      throw new AppError("forbidden", "Only the space's owners can let a token write directly");
    }
    const form = await c.req.parseBody();
    const id = view.space.wiki.id;
    const token = c.req.param("token");
    if (!await updateDirectWrites(deps.db, id, token, formText(form.direct) === "on")) {
      throw new AppError("not_found", `No space token "${token}" of "${id}" may propose edits`);
    }
    return c.redirect(toolHref(id, "feedback", { done: "settings" }), 303);
  });
}

/** A proposal's page, and accepting or declining it. */
function proposalRoutes(app: Hono, deps: Deps): void {
  app.get("/w/:id/-/proposals/:n", async (c) => {
    const view = await openSpace(deps, c, "admin");
    const proposal = await proposalOf(deps, view, numberParam(c, "n"));
    return c.html(<ProposalPage {...view} {...await compare(deps, proposal)} />);
  });

  app.post("/w/:id/-/proposals/:n/accept", async (c) => {
    const view = await openSpace(deps, c, "admin");
    const id = view.space.wiki.id;
    const n = numberParam(c, "n");
    const form = await c.req.parseBody();
    const markdown = formMarkdown(form.markdown);
    try {
      const out = await acceptProposal(deps, id, n, {
        reviewerId: view.account!.id,
        markdown,
        seenRevision: revisionParam(form.seen_revision, 0),
      });
      return c.redirect(pageHref(id, out.page), 303);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (!["revision_conflict", "invalid_markdown", "payload_too_large"].includes(error.code)) {
        throw error;
      }
      // Show the proposal again, compared with the page as it is now, the text kept.
      const proposal = await proposalOf(deps, view, n);
      const alert = error.code === "revision_conflict"
        ? `${error.detail}. The comparison below is against the text saved meanwhile.`
        : error.detail;
      return c.html(
        <ProposalPage
          {...view}
          {...await compare(deps, proposal)}
          alert={alert}
          markdown={markdown}
        />,
        error.code === "revision_conflict" ? 409 : 400,
      );
    }
  });

  app.post("/w/:id/-/proposals/:n/decline", async (c) => {
    const view = await openSpace(deps, c, "admin");
    const id = view.space.wiki.id;
    const form = await c.req.parseBody();
    await declineProposal(deps, id, numberParam(c, "n"), {
      reviewerId: view.account!.id,
      note: formText(form.note),
    });
    return c.redirect(toolHref(id, "feedback", { done: "declined" }), 303);
  });
}

const NOTICES: Record<string, string> = {
  resolved: "The report is marked resolved.",
  settings: "Saved.",
  declined: "The proposal is declined; nothing was written.",
};

async function feedbackPage(deps: Deps, view: SpaceView, done: string | undefined) {
  const id = view.space.wiki.id;
  const [reports, proposals, proposalsOn, writers] = await Promise.all([
    selectReports(deps.db, id, SHOWN),
    selectChangeRequests(deps.db, id, SHOWN),
    selectAgentProposals(deps.db, id),
    selectWriterTokens(deps.db, id),
  ]);
  return (
    <FeedbackPage
      {...view}
      {...{ reports, proposals, proposalsOn, writers }}
      notice={done ? NOTICES[done] : undefined}
    />
  );
}

async function proposalOf(deps: Deps, view: SpaceView, n: number): Promise<ChangeRequestRow> {
  const proposal = await selectChangeRequest(deps.db, view.space.wiki.id, n);
  if (!proposal) throw new AppError("not_found", `Proposal ${n} not found`);
  return proposal;
}

/** The proposal against the page now, and against its base when the page moved on. */
async function compare(deps: Deps, proposal: ChangeRequestRow) {
  const page = await selectPage(deps.db, proposal.wiki_id, pathKey(proposal.page_path));
  const current = {
    revision: page?.revision ?? 0,
    diff: lineDiff(page?.markdown ?? "", proposal.markdown),
  };
  let fromBase = null;
  if (page && proposal.base_revision > 0 && proposal.base_revision !== page.revision) {
    const base = await selectRevision(deps.db, page.id, proposal.base_revision);
    if (base) fromBase = lineDiff(base.markdown, proposal.markdown);
  }
  return { proposal, current, fromBase };
}

function numberParam(c: Context, name: string): number {
  const value = c.req.param(name) ?? "";
  if (!/^\d{1,15}$/.test(value)) throw new AppError("not_found", `No such item "${value}"`);
  return Number(value);
}

import type { ToolRegistrar } from "../kit/mcp/tool_middleware.ts";
import { z } from "zod";
import type { Deps } from "../deps.ts";
import { runTool, toolResult } from "../kit/mcp/tool_result.ts";
import { resolvePageTarget, scopeValue, type WikiScope, withScope } from "../kit/mcp/wiki_scope.ts";
import { proposeEdit, proposeInput, proposeOutput, type Proposer } from "./propose_edit.ts";
import { reportInput, reportOutput, reportProblem } from "./report_problem.ts";
import type { Sender } from "./store.ts";

const writes = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;

/**
 * Registers `report_problem` on a server: anyone who can read the wiki may tell its owners
 * what is wrong, under a small budget of their own (`budgetKey`).
 */
export function registerReportTool(
  server: ToolRegistrar,
  deps: Deps,
  scope: WikiScope,
  sender: Sender,
  budgetKey: string,
): void {
  server.registerTool("report_problem", {
    title: "Report a problem with a page",
    description:
      "Tell the wiki's owners that a page is wrong, outdated, missing or unclear, with a short note " +
      "(at most 2,000 characters). People read these reports and fix the page; use it when you " +
      "notice the wiki contradicting itself or a source, not for questions. A few reports an hour.",
    inputSchema: withScope(scope, reportInput),
    outputSchema: reportOutput,
    annotations: writes,
  }, (parsed) =>
    runTool(deps.log, async () => {
      const target = await resolvePageTarget(
        deps.config.baseUrl,
        scope,
        scopeValue(scope, parsed),
        parsed.page,
      );
      const page = target.ref.split("#")[0]!;
      const out = await reportProblem(
        deps,
        target.wiki,
        { ...parsed, page },
        sender,
        budgetKey,
      );
      return toolResult(
        out,
        `Reported: "${out.page}" is ${out.kind}. The wiki's owners will see it (${out.remaining} reports left this hour).`,
      );
    }));
}

/**
 * Registers `propose_edit` on the private endpoint: a change request the space's owners
 * review, or a direct write for a token they allowed to (see `mayPropose`).
 */
export function registerProposeTool(
  server: ToolRegistrar,
  deps: Deps,
  spaceParam: z.ZodType<string | undefined>,
  resolve: (space: string | undefined) => Promise<string>,
  proposer: Proposer,
): void {
  server.registerTool("propose_edit", {
    title: "Propose an edit",
    description:
      "Propose a new page or a change to one: send the page's whole new markdown and the revision " +
      "you started from (get_page's `revision`; 0 for a new page). A person reviews it in the wiki " +
      "and accepts, edits or declines it; nothing is published before that unless the space's owner " +
      "let this token write directly. Needs a token with the read and propose scope (OAuth: wiki:write).",
    inputSchema: proposeInput.extend({ space: spaceParam }),
    outputSchema: proposeOutput,
    annotations: writes,
  }, (args) =>
    runTool(deps.log, async () => {
      const wikiId = await resolve(args.space);
      const out = await proposeEdit(deps, wikiId, args, proposer);
      return toolResult(
        out,
        out.status === "applied"
          ? `Written: page "${out.page}" is now at revision ${out.revision} (this token writes directly).`
          : `Proposed: change request ${out.id} for page "${out.page}" waits for a person's review at ${out.review_url}`,
      );
    }));
}

import type { ToolRegistrar } from "../kit/mcp/tool_middleware.ts";
import { z } from "zod";
import type { Credential } from "../access/credential.ts";
import type { Deps } from "../deps.ts";
import { runTool, toolResult } from "../kit/mcp/tool_result.ts";
import { recordUsage } from "../usage/record_usage.ts";
import { recordPageUse } from "./record_page_use.ts";

/**
 * Registers `confirm_use` (the private endpoint's): the caller says it used a page, at the
 * revision it read; `resolve` turns the `space` argument into the space it may write to.
 */
export function registerConfirmUseTool(
  server: ToolRegistrar,
  deps: Deps,
  caller: { credential: Credential; clientName: string | null },
  spaceParam: z.ZodType<string | undefined>,
  resolve: (id: string | undefined) => Promise<string>,
): void {
  const { credential, clientName } = caller;
  server.registerTool("confirm_use", {
    title: "Confirm use of a page",
    description:
      "Record that you used a page in your answer, at the revision you read (from get_page), " +
      "with the question it helped with. Owners see which pages help. Returns the page's use count.",
    inputSchema: z.object({
      space: spaceParam,
      page: z.string().min(1).max(400).describe("The page path you used"),
      revision: z.number().int().min(1).optional().describe(
        "The revision you read (default: the current one)",
      ),
      query: z.string().max(2000).optional().describe("The question or task the page helped with"),
      note: z.string().max(2000).optional().describe(
        "Anything the page's owners should know, e.g. what was missing",
      ),
    }),
    outputSchema: z.object({
      recorded: z.boolean(),
      page: z.string(),
      revision: z.number().int(),
      uses: z.number().int(),
    }),
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
  }, (args) =>
    runTool(deps.log, async () => {
      const wikiId = await resolve(args.space);
      const out = await recordPageUse(deps.db, { wikiId, ...args }, {
        accountId: credential.accountId,
        credentialKind: credential.kind,
        credentialId: credential.id,
        clientName,
      });
      await recordUsage(deps, { wikiId, kind: "confirm", page: out.page, client: clientName });
      return toolResult(
        out,
        `Recorded: page "${out.page}" revision ${out.revision} (${out.uses} uses so far).`,
      );
    }));
}

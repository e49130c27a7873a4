import type { McpServer } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { Deps } from "../deps.ts";
import { budgetSchema, cutLine, fitAnswer, maxTokensParam } from "../kit/mcp/token_budget.ts";
import { runTool, toolResult } from "../kit/mcp/tool_result.ts";
import { scopeValue, type WikiScope, withScope } from "../kit/mcp/wiki_scope.ts";
import { askWikis } from "./ask.ts";
import { answerSchema, askInput } from "./ask_schema.ts";

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

/** Registers `ask` on a server, scoped as given. */
export function registerAskTools(server: McpServer, deps: Deps, scope: WikiScope): void {
  server.registerTool("ask", {
    title: "Ask the wiki",
    description:
      "Get a short answer to a question, written from the wiki's pages, with numbered citations " +
      "(page, url, revision and the exact quote) and frontier notes saying where the wiki's coverage is thin " +
      "(parts it does not cover, a single source, stale pages, linked pages nobody wrote). If coverage is " +
      "`unsupported`, the wiki does not answer the question: do not guess from it. `max_tokens` caps the " +
      "response (estimated as characters / 4): notes, then quotes and citations are cut first, as `budget.cut` says.",
    inputSchema: withScope(scope, askInput.extend({ max_tokens: maxTokensParam })),
    outputSchema: answerSchema.extend({ budget: budgetSchema }),
    annotations: readOnly,
  }, (args: Record<string, unknown>) =>
    runTool(deps.log, async () => {
      const wiki = await scope.resolve(scopeValue(scope, args));
      const input = args as z.input<typeof askInput> & { max_tokens?: number };
      const answered = await askWikis(deps, [wiki], input, { via: "mcp", client: scope.client });
      const out = input.max_tokens ? fitAnswer(answered, input.max_tokens) : answered;
      const sources = out.citations.map((c) =>
        `[${c.n}] ${c.title} (page "${c.page}", rev ${c.revision}) ${c.url}`
      );
      const notes = out.frontier.map((f) => `- ${f.kind}: ${f.note}`);
      return toolResult(
        out,
        [
          out.answer,
          ...(sources.length > 0 ? ["", "Sources:", ...sources] : []),
          ...(notes.length > 0
            ? ["", `Coverage: ${out.coverage}. Notes:`, ...notes]
            : [`\nCoverage: ${out.coverage}.`]),
          ...cutLine(out),
        ].join("\n"),
      );
    }));
}

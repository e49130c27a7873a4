import type { ToolRegistrar } from "../kit/mcp/tool_middleware.ts";
import type { Deps } from "../deps.ts";
import {
  type Budget,
  budgetOf,
  budgetSchema,
  cutLine,
  fits,
  maxTokensParam,
} from "../kit/mcp/token_budget.ts";
import { convertedOnce, runTool, toolResult } from "../kit/mcp/tool_result.ts";
import { scopeValue, type WikiScope, withScope } from "../kit/mcp/wiki_scope.ts";
import { VIEW_TOOL_META } from "../mcp_app/wiki_view.ts";
import { offerAsTask } from "../tasks/wire.ts";
import { askWikis } from "./ask.ts";
import { type Answer, answerSchema, askInput } from "./ask_schema.ts";

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

/** `ask`'s schemas, declared once: built per request they cost every MCP request their share. */
const askArgs = askInput.extend({ max_tokens: maxTokensParam });
const askOutputSchema = convertedOnce(answerSchema.extend({ budget: budgetSchema }));

/** Registers `ask` on a server, scoped as given. */
export function registerAskTools(server: ToolRegistrar, deps: Deps, scope: WikiScope): void {
  const ask = server.registerTool("ask", {
    title: "Ask the wiki",
    description:
      "Get a short answer to a question, written from the wiki's pages, with numbered citations " +
      "(page, url, revision and the exact quote) and frontier notes saying where the wiki's coverage is thin " +
      "(parts it does not cover, a single source, stale pages, linked pages nobody wrote). If coverage is " +
      "`unsupported`, the wiki does not answer the question: do not guess from it. `max_tokens` caps the " +
      "response (estimated as characters / 4): notes, then quotes and citations are cut first, as `budget.cut` says.",
    inputSchema: withScope(scope, askArgs),
    outputSchema: askOutputSchema,
    annotations: readOnly,
    _meta: VIEW_TOOL_META,
  }, (input) =>
    runTool(deps.log, async () => {
      const wiki = await scope.resolve(scopeValue(scope, input));
      const answered = await askWikis(deps, [wiki], input, {
        via: "mcp",
        client: scope.client,
        asker: scope.asker,
      });
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
  // A client that supports tasks may run it as one (src/tasks/): with a model it takes seconds.
  offerAsTask(ask);
}

/**
 * An answer cut to `maxTokens`: frontier notes go first, then long quotes are shortened,
 * then citations drop from the end, and last the answer text itself is cut.
 */
export function fitAnswer(out: Answer, maxTokens: number): Answer & { budget: Budget } {
  // Room for what is added after fitting: the budget field and its "what was cut" line, which
  // the text rendering repeats.
  const reserve = 100;
  const fitsHere = (a: Answer) => fits(a, maxTokens - reserve);
  const cuts: string[] = [];
  let answer = out;
  if (!fitsHere(answer) && answer.frontier.length > 0) {
    cuts.push(`${answer.frontier.length} frontier notes left out (coverage: ${answer.coverage})`);
    answer = { ...answer, frontier: [] };
  }
  if (!fitsHere(answer)) {
    // Shortened quotes stay verbatim: the first 160 characters, their offsets moved to match.
    answer = {
      ...answer,
      citations: answer.citations.map((c) =>
        c.quote.length > 160 ? { ...c, quote: c.quote.slice(0, 160), end: c.start + 160 } : c
      ),
    };
    cuts.push("quotes shortened to their first 160 characters: read the cited pages with get_page");
  }
  const all = answer.citations.length;
  while (answer.citations.length > 1 && !fitsHere(answer)) {
    answer = { ...answer, citations: answer.citations.slice(0, -1) };
  }
  if (answer.citations.length < all) {
    cuts.push(`${all - answer.citations.length} citations left out`);
  }
  if (!fitsHere(answer)) {
    const over = JSON.stringify(answer).length + 160 - (maxTokens - reserve) * 4;
    const keep = Math.max(80, answer.answer.length - over);
    answer = { ...answer, answer: `${answer.answer.slice(0, keep)}…` };
    cuts.push("the answer was cut short");
  }
  const cut = cuts.length > 0
    ? `${cuts.join("; ")}. For all of it, call ask again with a larger max_tokens`
    : null;
  return { ...answer, budget: budgetOf(maxTokens, answer, cut) };
}

import type { ToolRegistrar } from "../kit/mcp/tool_middleware.ts";
import { z } from "zod";
import type { Deps } from "../deps.ts";
import { budgetSchema, fitSearch, maxTokensParam } from "../kit/mcp/token_budget.ts";
import { convertedOnce, runTool, toolResult } from "../kit/mcp/tool_result.ts";
import { scopeValue, searchScope, type WikiScope, withScope } from "../kit/mcp/wiki_scope.ts";
import { VIEW_TOOL_META } from "../mcp_app/wiki_view.ts";
import { recordSearch } from "../usage/record_usage.ts";
import { searchInput, searchResultSchema, searchWikis } from "./search_wikis.ts";
import { markSnippet } from "./snippet.ts";

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * Search results as tools give them: each with an `id` that `fetch` accepts (`<wiki>/<path>`),
 * the shape ChatGPT connectors and deep research expect beside our own fields.
 */
export const toolSearchOutputSchema = convertedOnce(z.object({
  results: z.array(searchResultSchema.extend({
    id: z.string().describe(
      "The result's id for fetch: `<wiki>/<page path>`, or `<wiki>@<version>/<page path>`",
    ),
  })),
  next_cursor: z.string().nullable(),
  budget: budgetSchema,
}));

/** `search`'s arguments before the scope's parameter, declared once (see `withScope`). */
const searchArgs = searchInput.extend({ max_tokens: maxTokensParam });

/** Registers `search` on a server, scoped as given (without the parameter: every wiki of `all`). */
export function registerSearchTools(server: ToolRegistrar, deps: Deps, scope: WikiScope): void {
  server.registerTool("search", {
    title: "Search the wiki",
    description:
      "Find the pages that answer a question or mention a topic. Call this first, before get_page. " +
      "`max_tokens` caps the response (estimated as characters / 4): results then drop from the end " +
      "and `budget.cut` says how to get them. " +
      "Returns up to `limit` pages, best first, each with the best matching passage (as plain text; in the text form the query's words are marked ⟦ ⟧), " +
      "its section, an `id` for fetch, the page path for get_page, its url and revision. Exact title " +
      "matches come first." +
      (scope.all
        ? ` Without \`${scope.param!.name}\`, searches all of them; each result names its wiki.`
        : ""),
    inputSchema: withScope(scope, searchArgs, "search"),
    outputSchema: toolSearchOutputSchema,
    annotations: readOnly,
    _meta: VIEW_TOOL_META,
  }, (input) =>
    runTool(deps.log, async () => {
      const wikis = await searchScope(scope, scopeValue(scope, input));
      // Counted by the results shown: those `max_tokens` leaves.
      const found = await searchWikis(deps, wikis, input);
      const all = {
        // A versioned result's id names its version: a fetch of it stays in that version.
        results: found.results.map((r) => ({
          id: `${r.wiki}${r.version ? `@${r.version}` : ""}/${r.page}`,
          ...r,
        })),
        next_cursor: found.next_cursor,
      };
      const out = input.max_tokens ? fitSearch(all, input.max_tokens, input.cursor) : all;
      await recordSearch(deps, { wikis, ...input, results: out.results, ...mcpSource(scope) });
      return toolResult(out, searchText(out));
    }));
}

/** A result as `searchText` renders it: what a model reads to choose and fetch a page. */
type TextResult = z.infer<typeof toolSearchOutputSchema>["results"][number];

/**
 * The text form of a search: JSON (the convention of ChatGPT's search/fetch tools) of what a
 * model reads to choose a page and fetch it, with the matched words marked ⟦ ⟧ in each snippet
 * (markers no markdown uses). The structured result carries the rest (`matches`, `score`,
 * `revision`, `updated_at`); repeating them here doubled the answer's size for nothing a model
 * acts on, and the answer's size is a cost of every call (serialised, sent, parsed, validated).
 */
export function searchText(out: z.infer<typeof toolSearchOutputSchema>): string {
  const results = out.results.map((r: TextResult) => ({
    id: r.id,
    wiki: r.wiki,
    page: r.page,
    title: r.title,
    section: r.section,
    snippet: markSnippet({ text: r.snippet, matches: r.matches }),
    url: r.url,
    ...(r.version ? { version: r.version } : {}),
    ...(r.source_commit ? { source_commit: r.source_commit } : {}),
    ...(r.synced_at ? { synced_at: r.synced_at } : {}),
  }));
  return JSON.stringify({ results, next_cursor: out.next_cursor, budget: out.budget });
}

/** Who a tool's search is counted for on the usage pages. */
function mcpSource(scope: WikiScope) {
  return { via: "mcp" as const, client: scope.client };
}

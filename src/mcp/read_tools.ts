import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { askWikis } from "../ask/ask.ts";
import { markSnippet } from "../search/snippet.ts";
import { answerSchema, askInput } from "../ask/ask_schema.ts";
import type { Deps } from "../deps.ts";
import { withoutTitleHeading } from "../markdown/outline.ts";
import { getPageInput, pageContentSchema, readPageContent } from "../pages/get_page_content.ts";
import { listNeighbors, neighborsInput, neighborsSchema } from "../pages/list_neighbors.ts";
import { listPages, listPagesInput, pageListSchema } from "../pages/list_pages.ts";
import { searchAndRecord } from "../search/search_and_record.ts";
import { searchInput, searchResultSchema } from "../search/search_wikis.ts";
import { recordRead } from "../usage/record_usage.ts";
import { registerFetchTool } from "./fetch_tool.ts";
import {
  budgetSchema,
  cutLine,
  fitAnswer,
  fitSearch,
  maxTokensParam,
  pageBudget,
  sliceChars,
} from "./token_budget.ts";
import { runTool, toolResult } from "./tool_result.ts";
import { resolvePageTarget, scopeValue, searchScope, type WikiScope } from "./wiki_scope.ts";

export type { WikiScope } from "./wiki_scope.ts";

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * Search results as tools give them: each with an `id` that `fetch` accepts (`<wiki>/<path>`),
 * the shape ChatGPT connectors and deep research expect beside our own fields.
 */
export const toolSearchOutputSchema = z.object({
  results: z.array(searchResultSchema.extend({
    id: z.string().describe(
      "The result's id for fetch: `<wiki>/<page path>`, or `<wiki>@<version>/<page path>`",
    ),
  })),
  next_cursor: z.string().nullable(),
  budget: budgetSchema,
});

/**
 * Registers `search`, `fetch`, `get_page`, `list_pages`, `neighbors` and `ask` on a server,
 * scoped as given.
 */
export function registerReadTools(server: McpServer, deps: Deps, scope: WikiScope): void {
  const withScope = <S extends z.ZodObject>(schema: S) =>
    scope.param ? schema.extend({ [scope.param.name]: scope.param.schema }) : schema;
  const value = (args: Record<string, unknown>) => scopeValue(scope, args);

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
    inputSchema: scope.param && scope.all
      ? searchInput.extend({
        max_tokens: maxTokensParam,
        [scope.param.name]: scope.param.searchSchema,
      })
      : withScope(searchInput.extend({ max_tokens: maxTokensParam })),
    outputSchema: toolSearchOutputSchema,
    annotations: readOnly,
  }, (args: Record<string, unknown>) =>
    runTool(deps.log, async () => {
      const wikis = await searchScope(scope, value(args));
      const input = args as z.input<typeof searchInput> & { max_tokens?: number };
      // Counted by the results shown: those `max_tokens` leaves.
      const out = await searchAndRecord(
        deps,
        wikis,
        input,
        { via: "mcp", client: scope.client },
        (found) => {
          const all = {
            // A versioned result's id names its version: a fetch of it stays in that version.
            results: found.results.map((r) => ({
              id: `${r.wiki}${r.version ? `@${r.version}` : ""}/${r.page}`,
              ...r,
            })),
            next_cursor: found.next_cursor,
          };
          return input.max_tokens ? fitSearch(all, input.max_tokens, input.cursor) : all;
        },
      );
      // The text is the JSON of the results (the convention of ChatGPT's search/fetch tools),
      // with the matched words marked ⟦ ⟧ in each snippet: markers no markdown uses.
      const marked = out.results.map(({ matches, ...r }) => ({
        ...r,
        snippet: markSnippet({ text: r.snippet, matches }),
      }));
      return toolResult(out, JSON.stringify({ ...out, results: marked }));
    }));

  registerFetchTool(server, deps, scope);

  server.registerTool("get_page", {
    title: "Read a page",
    description:
      "Read a page's markdown by its path or url (from search results or links); `Page#Section` starts " +
      "at that section. Long pages come in slices: when `truncated` is true, call again with `offset` = " +
      "`next_offset`; each slice names the section it starts in. `revision` reads an earlier revision; " +
      "`if_changed_since` returns only `unchanged: true` when you already have the current one. Also " +
      "returns the page's revision (pass it to confirm_use), url and outgoing links. `max_tokens` caps " +
      "the response (estimated as characters / 4): the slice ends sooner and `budget.cut` gives the offset to go on from.",
    inputSchema: withScope(getPageInput.extend({ max_tokens: maxTokensParam })),
    outputSchema: pageContentSchema.extend({ budget: budgetSchema }),
    annotations: readOnly,
  }, (args: Record<string, unknown>) =>
    runTool(deps.log, async () => {
      const input = args as z.input<typeof getPageInput> & { max_tokens?: number };
      const target = await resolvePageTarget(deps.config.baseUrl, scope, value(args), input.page);
      const wiki = target.wiki;
      // Read once: a slice cut to fit `max_tokens` comes from the text already read.
      const read = await readPageContent(deps, wiki, {
        ...input,
        page: target.ref,
        version: input.version ?? target.version,
      });
      let page = read.content;
      if (input.max_tokens && !page.unchanged) {
        const overhead = JSON.stringify({ ...page, markdown: "" }).length;
        const chars = sliceChars(input.max_tokens, overhead);
        const cutByBudget = chars < page.markdown.length;
        if (cutByBudget) page = read.cut(chars);
        page = pageBudget(page, input.max_tokens, cutByBudget);
      }
      await recordRead(deps, { wikiId: wiki, page: page.page, client: scope.client }, {
        offset: input.offset,
        unchanged: page.unchanged,
      });
      return toolResult(page, renderPage(page) + cutLine(page).join(""));
    }));

  server.registerTool("list_pages", {
    title: "List pages",
    description:
      "List the wiki's pages as a tree, by path, with titles (`limit` at a time; pass `next_cursor` " +
      "back as `cursor`). `prefix` lists one folder; `headings_of` also returns one page's headings, " +
      "whose anchors get_page takes as `Page#anchor`.",
    inputSchema: withScope(listPagesInput),
    outputSchema: pageListSchema,
    annotations: readOnly,
  }, (args: Record<string, unknown>) =>
    runTool(deps.log, async () => {
      const wiki = await scope.resolve(value(args));
      const out = await listPages(deps, wiki, args as z.output<typeof listPagesInput>);
      return toolResult(out, renderPageList(wiki, out));
    }));

  server.registerTool("neighbors", {
    title: "Linked pages",
    description:
      "List the pages a page links to (relation links_to, including pages that do not exist yet: " +
      "exists=false) and the pages that link to it (linked_from). Use it to explore around a page you read.",
    inputSchema: withScope(neighborsInput),
    outputSchema: neighborsSchema,
    annotations: readOnly,
  }, (args: Record<string, unknown>) =>
    runTool(deps.log, async () => {
      const wiki = await scope.resolve(value(args));
      const out = await listNeighbors(deps, wiki, args as z.input<typeof neighborsInput>);
      const lines = out.neighbors.map((n) =>
        `${n.relation === "links_to" ? "→" : "←"} ${n.page}${
          n.title && n.title !== n.page ? ` (${n.title})` : ""
        }` +
        (n.exists ? "" : " [not written yet]")
      );
      return toolResult(
        out,
        lines.length > 0 ? lines.join("\n") : `Page "${out.page}" has no links in or out.`,
      );
    }));

  server.registerTool("ask", {
    title: "Ask the wiki",
    description:
      "Get a short answer to a question, written from the wiki's pages, with numbered citations " +
      "(page, url, revision and the exact quote) and frontier notes saying where the wiki's coverage is thin " +
      "(parts it does not cover, a single source, stale pages, linked pages nobody wrote). If coverage is " +
      "`unsupported`, the wiki does not answer the question: do not guess from it. `max_tokens` caps the " +
      "response (estimated as characters / 4): notes, then quotes and citations are cut first, as `budget.cut` says.",
    inputSchema: withScope(askInput.extend({ max_tokens: maxTokensParam })),
    outputSchema: answerSchema.extend({ budget: budgetSchema }),
    annotations: readOnly,
  }, (args: Record<string, unknown>) =>
    runTool(deps.log, async () => {
      const wiki = await scope.resolve(value(args));
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

/** get_page's text: a header line, then the slice (without a repeat of the title heading). */
function renderPage(page: z.infer<typeof pageContentSchema>): string {
  if (page.unchanged) {
    return `Page "${page.page}" is unchanged: still at revision ${page.revision}. (${page.url})`;
  }
  const revision = page.revision === page.current_revision
    ? `revision ${page.revision}`
    : `revision ${page.revision}, an earlier one: the page is now at revision ${page.current_revision}`;
  const where = page.section ? `, from section "${page.section}"` : "";
  const body = page.offset === 0 ? withoutTitleHeading(page.markdown) : page.markdown;
  const more = page.truncated
    ? `\n\n[… ${
      page.total_chars - page.next_offset!
    } more characters: call get_page with offset ${page.next_offset}]`
    : "";
  return `# ${page.title}\n(page "${page.page}", ${revision}, ${page.url}${where})\n\n${body}${more}`;
}

/** list_pages' text: the pages indented by folder depth, then the asked-for outline. */
function renderPageList(wiki: string, out: z.infer<typeof pageListSchema>): string {
  const lines = out.pages.map((p) => {
    const depth = p.page.split("/").length - 1;
    return `${"  ".repeat(depth)}- ${p.title}${p.title === p.page ? "" : ` (page "${p.page}")`}`;
  });
  if (lines.length === 0) lines.push(`No pages in "${wiki}" here.`);
  if (out.next_cursor) lines.push(`More pages: pass cursor "${out.next_cursor}".`);
  if (out.outline) {
    lines.push("", `Headings of "${out.outline.page}":`);
    for (const h of out.outline.headings) {
      lines.push(`${"  ".repeat(h.level - 1)}- ${h.text} (#${h.anchor})`);
    }
    if (out.outline.headings.length === 0) lines.push("(no headings)");
  }
  return lines.join("\n");
}

import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { askWikis } from "../ask/ask.ts";
import { markSnippet } from "../search/snippet.ts";
import { answerSchema, askInput } from "../ask/ask_schema.ts";
import type { Deps } from "../deps.ts";
import { getPageContent, getPageInput, pageContentSchema } from "../pages/get_page_content.ts";
import { listNeighbors, neighborsInput, neighborsSchema } from "../pages/list_neighbors.ts";
import { searchInput, searchOutputSchema, searchWikis } from "../search/search_wikis.ts";
import { recordUsage } from "../usage/record_usage.ts";
import { runTool, toolResult } from "./tool_result.ts";

/**
 * How a server's read tools find their wiki: from a parameter (`wiki` on the hub, `space` on
 * the private endpoint) checked by `resolve`, or fixed by the endpoint (no parameter).
 */
export type WikiScope = {
  param: { name: "wiki" | "space"; schema: z.ZodType<string | undefined> } | null;
  resolve(value: string | undefined): Promise<string>;
  /** The caller's name (OAuth client or User-Agent) that usage is counted under. */
  client?: string | null;
};

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

/** Registers `search`, `get_page`, `neighbors` and `ask` on a server, scoped as given. */
export function registerReadTools(server: McpServer, deps: Deps, scope: WikiScope): void {
  const withScope = <S extends z.ZodObject>(schema: S) =>
    scope.param ? schema.extend({ [scope.param.name]: scope.param.schema }) : schema;
  const scopeValue = (args: Record<string, unknown>) =>
    scope.param ? args[scope.param.name] as string | undefined : undefined;

  server.registerTool("search", {
    title: "Search the wiki",
    description:
      "Find the pages that answer a question or mention a topic. Call this first, before get_page. " +
      "Returns up to `limit` pages, best first, each with the best matching passage (as plain text, the query's words marked ⟦ ⟧), " +
      "its section, the page path for get_page, its url and revision. Exact title matches come first.",
    inputSchema: withScope(searchInput),
    outputSchema: searchOutputSchema,
    annotations: readOnly,
  }, (args: Record<string, unknown>) =>
    runTool(deps.log, async () => {
      const wiki = await scope.resolve(scopeValue(args));
      const out = await searchWikis(deps, [wiki], args as z.input<typeof searchInput>);
      await recordUsage(deps, { wikiId: wiki, kind: "search", client: scope.client });
      const lines = out.results.map((r, i) =>
        `${i + 1}. ${r.title} — page "${r.page}"${
          r.section ? `, section ${r.section}` : ""
        } (rev ${r.revision})\n` +
        `   ${
          markSnippet({ text: r.snippet, matches: r.matches }).replace(/\s+/g, " ")
        }\n   ${r.url}`
      );
      const text = lines.length > 0
        ? lines.join("\n") +
          (out.next_cursor ? `\nMore results: pass cursor "${out.next_cursor}".` : "")
        : `No page of "${wiki}" matches this query.`;
      return toolResult(out, text);
    }));

  server.registerTool("get_page", {
    title: "Read a page",
    description:
      "Read a page's markdown by its path (from search results or links). Long pages come in " +
      "slices: when `truncated` is true, call again with `offset` = `next_offset`. Also returns the page's " +
      "revision (pass it to confirm_use), url and outgoing links.",
    inputSchema: withScope(getPageInput),
    outputSchema: pageContentSchema,
    annotations: readOnly,
  }, (args: Record<string, unknown>) =>
    runTool(deps.log, async () => {
      const wiki = await scope.resolve(scopeValue(args));
      const page = await getPageContent(deps, wiki, args as z.input<typeof getPageInput>);
      // A long page read in slices counts once, at its first slice.
      if (!args.offset) {
        await recordUsage(deps, {
          wikiId: wiki,
          kind: "read",
          page: page.page,
          client: scope.client,
        });
      }
      const more = page.truncated
        ? `\n\n[… ${
          page.total_chars - page.next_offset!
        } more characters: call get_page with offset ${page.next_offset}]`
        : "";
      return toolResult(
        page,
        `# ${page.title}\n(page "${page.page}", revision ${page.revision}, ${page.url})\n\n${page.markdown}${more}`,
      );
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
      const wiki = await scope.resolve(scopeValue(args));
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
      "`unsupported`, the wiki does not answer the question: do not guess from it.",
    inputSchema: withScope(askInput),
    outputSchema: answerSchema,
    annotations: readOnly,
  }, (args: Record<string, unknown>) =>
    runTool(deps.log, async () => {
      const wiki = await scope.resolve(scopeValue(args));
      const out = await askWikis(deps, [wiki], args as z.input<typeof askInput>);
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
        ].join("\n"),
      );
    }));
}

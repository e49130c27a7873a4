import type { ToolRegistrar } from "../kit/mcp/tool_middleware.ts";
import type { z } from "zod";
import type { Deps } from "../deps.ts";
import { withoutTitleHeading } from "../markdown/outline.ts";
import { getPageInput, pageContentSchema, readPageContent } from "./get_page_content.ts";
import { listNeighbors, neighborsInput, neighborsSchema } from "./list_neighbors.ts";
import { listPages, listPagesInput, pageListSchema } from "./list_pages.ts";
import { recordRead } from "../usage/record_usage.ts";
import { VIEW_TOOL_META } from "../mcp_app/wiki_view.ts";
import {
  budgetSchema,
  cutLine,
  maxTokensParam,
  pageBudget,
  sliceChars,
} from "../kit/mcp/token_budget.ts";
import { convertedOnce, runTool, toolResult } from "../kit/mcp/tool_result.ts";
import { resolvePageTarget, scopeValue, type WikiScope, withScope } from "../kit/mcp/wiki_scope.ts";

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

/** The page tools' schemas, declared once (see `convertedOnce` and `withScope`). */
const getPageArgs = getPageInput.extend({ max_tokens: maxTokensParam });
const pageOutputSchema = convertedOnce(pageContentSchema.extend({ budget: budgetSchema }));
const pageListOutputSchema = convertedOnce(pageListSchema);
const neighborsOutputSchema = convertedOnce(neighborsSchema);

/** Registers `get_page`, `list_pages` and `neighbors` on a server, scoped as given. */
export function registerPageTools(server: ToolRegistrar, deps: Deps, scope: WikiScope): void {
  registerGetPage(server, deps, scope);
  registerListPages(server, deps, scope);
  registerNeighbors(server, deps, scope);
}

/** `get_page`: a page's markdown, in slices, cut to `max_tokens` from one read. */
function registerGetPage(server: ToolRegistrar, deps: Deps, scope: WikiScope): void {
  server.registerTool("get_page", {
    title: "Read a page",
    description:
      "Read a page's markdown by its path or url (from search results or links); `Page#Section` starts " +
      "at that section. Long pages come in slices: when `truncated` is true, call again with `offset` = " +
      "`next_offset`; each slice names the section it starts in. `revision` reads an earlier revision; " +
      "`if_changed_since` returns only `unchanged: true` when you already have the current one. Also " +
      "returns the page's revision (pass it to confirm_use), url and outgoing links. `max_tokens` caps " +
      "the response (estimated as characters / 4): the slice ends sooner and `budget.cut` gives the offset to go on from.",
    inputSchema: withScope(scope, getPageArgs),
    outputSchema: pageOutputSchema,
    annotations: readOnly,
    _meta: VIEW_TOOL_META,
  }, (input) =>
    runTool(deps.log, async () => {
      const target = await resolvePageTarget(
        deps.config.baseUrl,
        scope,
        scopeValue(scope, input),
        input.page,
      );
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
}

/** `list_pages`: the wiki's pages as a tree, a page of them at a time. */
function registerListPages(server: ToolRegistrar, deps: Deps, scope: WikiScope): void {
  server.registerTool("list_pages", {
    title: "List pages",
    description:
      "List the wiki's pages as a tree, by path, with titles (`limit` at a time; pass `next_cursor` " +
      "back as `cursor`). `prefix` lists one folder; `headings_of` also returns one page's headings, " +
      "whose anchors get_page takes as `Page#anchor`.",
    inputSchema: withScope(scope, listPagesInput),
    outputSchema: pageListOutputSchema,
    annotations: readOnly,
  }, (args) =>
    runTool(deps.log, async () => {
      const wiki = await scope.resolve(scopeValue(scope, args));
      const out = await listPages(deps, wiki, args);
      return toolResult(out, renderPageList(wiki, out));
    }));
}

/** `neighbors`: the pages a page links to and those linking to it. */
function registerNeighbors(server: ToolRegistrar, deps: Deps, scope: WikiScope): void {
  server.registerTool("neighbors", {
    title: "Linked pages",
    description:
      "List the pages a page links to (relation links_to, including pages that do not exist yet: " +
      "exists=false) and the pages that link to it (linked_from). Use it to explore around a page you read.",
    inputSchema: withScope(scope, neighborsInput),
    outputSchema: neighborsOutputSchema,
    annotations: readOnly,
  }, (args) =>
    runTool(deps.log, async () => {
      const wiki = await scope.resolve(scopeValue(scope, args));
      const out = await listNeighbors(deps, wiki, args);
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

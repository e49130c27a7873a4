import type { ToolRegistrar } from "../kit/mcp/tool_middleware.ts";
import { z } from "zod";
import type { Deps } from "../deps.ts";
import { withoutTitleHeading } from "../markdown/outline.ts";
import { getPageContent, LIMIT_MAX_CHARS } from "./get_page_content.ts";
import { recordRead } from "../usage/record_usage.ts";
import { convertedOnce, runTool, toolResult } from "../kit/mcp/tool_result.ts";
import { resolvePageTarget, type WikiScope } from "../kit/mcp/wiki_scope.ts";
import { AppError } from "../errors.ts";
import { versionParam } from "../versions/versions.ts";

/** A fetched page in the shape ChatGPT connectors and deep research read. */
export const fetchOutputSchema = convertedOnce(z.object({
  id: z.string(),
  title: z.string(),
  text: z.string().describe("The page's markdown (without its title heading)"),
  url: z.string(),
  metadata: z.object({
    wiki: z.string(),
    page: z.string().describe("The page path, for get_page and neighbors"),
    revision: z.number().int(),
    updated_at: z.string(),
    section: z.string().nullable().describe("The section the text starts in"),
    total_chars: z.number().int(),
    truncated: z.boolean().describe(
      "True for a page longer than one fetch: get_page with offset reads the rest",
    ),
    next_offset: z.number().int().nullable(),
    version: z.string().optional().describe("The version of the wiki (absent: the live pages)"),
  }),
}));

const fetchInputSchema = z.object({
  id: z.string().min(1).max(700).describe(
    "A search result's id (`<wiki>/<page path>`), or a page url",
  ),
  version: versionParam.describe(
    "The version to read when the id names none (ids and urls from a versioned result carry " +
      'theirs), e.g. "v2.1"; "latest" is the live pages. Default: the wiki\'s default version',
  ),
});

/**
 * Registers `fetch`: an `id` from search (`<wiki>/<path>`) or a page url (and an optional `version`),
 * as ChatGPT connectors and deep research call it. Reads through the same function as get_page.
 */
export function registerFetchTool(server: ToolRegistrar, deps: Deps, scope: WikiScope): void {
  server.registerTool("fetch", {
    title: "Fetch a page",
    description: "Fetch a whole page by the `id` a search result gives (`<wiki>/<page path>`, or " +
      "`<wiki>@<version>/<page path>` for a version) or by its url. " +
      "Returns id, title, text (the page's markdown), url and metadata (wiki, path, revision).",
    inputSchema: fetchInputSchema,
    outputSchema: fetchOutputSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, (args) =>
    runTool(deps.log, async () => {
      const target = await resolvePageTarget(
        deps.config.baseUrl,
        scope,
        undefined,
        args.id.trim(),
        true,
      );
      const page = await getPageContent(deps, target.wiki, {
        page: target.ref,
        max_chars: LIMIT_MAX_CHARS,
        version: versionOf(target.version, args.version),
      });
      await recordRead(deps, { wikiId: target.wiki, page: page.page, client: scope.client });
      const out = {
        id: `${page.wiki}${page.version ? `@${page.version}` : ""}/${page.page}`,
        title: page.title,
        text: page.offset === 0 ? withoutTitleHeading(page.markdown) : page.markdown,
        url: page.url,
        metadata: {
          wiki: page.wiki,
          page: page.page,
          revision: page.revision,
          updated_at: page.updated_at,
          section: page.section,
          total_chars: page.total_chars,
          truncated: page.truncated,
          next_offset: page.next_offset,
          ...(page.version ? { version: page.version } : {}),
        },
      };
      // The text is the JSON of the document: the convention of ChatGPT's search/fetch tools.
      return toolResult(out, JSON.stringify(out));
    }));
}

/** The version a fetch reads: the id's own, or the one asked for; the two must agree. */
function versionOf(fromId: string | undefined, asked: string | undefined): string | undefined {
  if (fromId && asked && fromId.toLowerCase() !== asked.trim().toLowerCase()) {
    throw new AppError(
      "bad_request",
      `The id names version "${fromId}" and version "${asked}" was asked: leave out one of them`,
    );
  }
  return fromId ?? asked;
}

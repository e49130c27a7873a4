import type { ToolRegistrar } from "../kit/mcp/tool_middleware.ts";
import { z } from "zod";
import type { Credential } from "../access/credential.ts";
import type { Deps } from "../deps.ts";
import { convertedOnce, runTool, toolResult } from "../kit/mcp/tool_result.ts";
import {
  listPublicWikis,
  listPublicWikisInput,
  publicWikiListSchema,
} from "./list_public_wikis.ts";
import { listSpaces, spaceListSchema } from "./list_spaces.ts";

/** The list tools' schemas, declared once (see `convertedOnce`). */
const listWikisArgs = z.object({
  query: listPublicWikisInput.shape.query,
  cursor: listPublicWikisInput.shape.cursor,
  limit: z.number().int().min(1).max(200).default(50).describe(
    "How many wikis to return (1-200)",
  ),
});
const publicWikiListOutput = convertedOnce(publicWikiListSchema);
const noArgs = z.object({});
const spaceListOutput = convertedOnce(spaceListSchema);

/** Registers `list_wikis` (the hub's): the public wikis, filtered and paged. */
export function registerListWikisTool(server: ToolRegistrar, deps: Deps): void {
  server.registerTool("list_wikis", {
    title: "List public wikis",
    description:
      "List the public wikis of this server, with their ids (pass one as `wiki` to search, get_page " +
      "and neighbors), titles, descriptions and page counts. Filter with `query`; page with `cursor`.",
    inputSchema: listWikisArgs,
    outputSchema: publicWikiListOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, (args) =>
    runTool(deps.log, async () => {
      const out = await listPublicWikis(deps, args);
      const lines = out.wikis.map((w) =>
        `- ${w.id}: ${w.title} (${w.pages} pages)${w.description ? ` — ${w.description}` : ""}`
      );
      const more = out.next_cursor ? `\nMore wikis: pass cursor "${out.next_cursor}".` : "";
      return toolResult(out, (lines.join("\n") || "No public wiki matches.") + more);
    }));
}

/** Registers `my_spaces` (the private endpoint's): the spaces the credential reaches. */
export function registerMySpacesTool(
  server: ToolRegistrar,
  deps: Deps,
  credential: Credential,
): void {
  server.registerTool("my_spaces", {
    title: "List my spaces",
    description:
      "List the private spaces this credential can read, with ids (pass one as `space` to the " +
      "other tools), titles, your role and page counts.",
    inputSchema: noArgs,
    outputSchema: spaceListOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, () =>
    runTool(deps.log, async () => {
      const out = await listSpaces(deps, credential);
      const lines = out.spaces.map((s) =>
        `- ${s.id}: ${s.title} (${s.pages} pages, you are ${s.role})`
      );
      return toolResult(out, lines.join("\n") || "This credential reaches no space.");
    }));
}

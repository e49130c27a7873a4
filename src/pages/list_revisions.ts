import { z } from "zod";
import type { Deps } from "../deps.ts";
import { resolvePageRef } from "./read_page.ts";
import { selectRevisionPage } from "./store.ts";

/** Input of a page's history listing (REST `GET …/pages/{path}/revisions`). */
export const listRevisionsInput = z.object({
  before: z.coerce.number().int().min(1).optional().describe(
    "Only revisions older than this one: the next_before of a previous call",
  ),
  limit: z.coerce.number().int().min(1).max(200).default(50).describe(
    "How many revisions to return (1-200)",
  ),
});

/** A page's kept revisions, newest first. */
export const revisionListSchema = z.object({
  wiki: z.string(),
  page: z.string(),
  current_revision: z.number().int(),
  revisions: z.array(z.object({
    revision: z.number().int(),
    action: z.enum(["create", "update", "rename", "delete"]),
    path: z.string().describe("The page's path at that revision"),
    title: z.string(),
    source: z.string().describe("Where the write came from: web, api, import…"),
    created_at: z.string(),
  })),
  next_before: z.number().int().nullable().describe(
    "Pass as `before` for older revisions; null when there are none",
  ),
});

/** Lists the kept revisions of a page (each readable with `revision=`), newest first. */
export async function listRevisions(
  deps: Pick<Deps, "db">,
  wikiId: string,
  ref: string,
  input: z.input<typeof listRevisionsInput>,
): Promise<z.infer<typeof revisionListSchema>> {
  const { before, limit } = listRevisionsInput.parse(input);
  const page = await resolvePageRef(deps.db, wikiId, ref);
  const rows = await selectRevisionPage(deps.db, page.id, {
    before: before ?? null,
    limit: limit + 1,
  });
  const shown = rows.slice(0, limit);
  return {
    wiki: wikiId,
    page: page.path,
    current_revision: page.revision,
    revisions: shown.map((r) => ({
      revision: r.revision,
      action: r.action,
      path: r.path,
      title: r.title,
      source: r.source,
      created_at: r.created_at.toISOString(),
    })),
    next_before: rows.length > limit ? shown[shown.length - 1]!.revision : null,
  };
}

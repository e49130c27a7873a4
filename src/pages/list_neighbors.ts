import { z } from "zod";
import type { Deps } from "../deps.ts";
import { resolvePageRef } from "./read_page.ts";
import { type Neighbors, neighborsSchema } from "./neighbors_schema.ts";

export { type Neighbors, neighborsSchema };
import { versionNeighbors } from "./version_neighbors.ts";
import { resolveVersion, versionParam } from "../versions/versions.ts";
import { selectLinksFrom, selectLinksTo } from "./store.ts";

/** Input of a neighbourhood query (MCP `neighbors`, REST neighbors route). */
export const neighborsInput = z.object({
  page: z.string().min(1).max(400).describe("The page path or numeric id"),
  direction: z.enum(["out", "in", "both"]).default("both").describe(
    "out: pages this page links to; in: pages linking here; both",
  ),
  limit: z.number().int().min(1).max(200).default(50).describe(
    "How many neighbours to return at most (1-200)",
  ),
  version: versionParam,
});

/** The pages a page links to (including missing ones) and the pages that link to it. */
export async function listNeighbors(
  deps: Pick<Deps, "db">,
  wikiId: string,
  input: z.input<typeof neighborsInput>,
): Promise<Neighbors> {
  const { page: ref, direction, limit, version: asked } = neighborsInput.parse(input);
  const version = await resolveVersion(deps.db, wikiId, asked);
  if (version) return await versionNeighbors(deps.db, version, { page: ref, direction, limit });
  const page = await resolvePageRef(deps.db, wikiId, ref);
  const out = direction === "in" ? [] : await selectLinksFrom(deps.db, page.id);
  const inbound = direction === "out" ? [] : await selectLinksTo(deps.db, page.id);
  const seen = new Set<string>();
  const neighbors: Neighbors["neighbors"] = [];
  for (const l of out) {
    const target = l.other_path ?? l.target;
    if (seen.has(`out:${target.toLowerCase()}`)) continue;
    seen.add(`out:${target.toLowerCase()}`);
    neighbors.push({
      page: target,
      title: l.other_title,
      relation: "links_to",
      anchor_text: l.label,
      section: l.section,
      exists: l.to_page_id !== null,
    });
  }
  for (const l of inbound) {
    const from = l.other_path!;
    if (seen.has(`in:${from.toLowerCase()}`)) continue;
    seen.add(`in:${from.toLowerCase()}`);
    neighbors.push({
      page: from,
      title: l.other_title,
      relation: "linked_from",
      anchor_text: l.label,
      section: l.section,
      exists: true,
    });
  }
  return {
    wiki: wikiId,
    page: page.path,
    title: page.title,
    neighbors: neighbors.slice(0, limit),
    truncated: neighbors.length > limit,
  };
}

import type { Db } from "../db/db.ts";
import { resolveVersionPage, versionLinksOf, versionPages } from "../versions/version_pages.ts";
import type { Version } from "../versions/versions.ts";
import type { Neighbors } from "./neighbors_schema.ts";

/** Pages read per statement when the links into a page of a version are gathered. */
const BATCH = 500;

/**
 * A page's neighbours in a version: the links of its pinned text (out) and the pages of the
 * version whose pinned text links to it (in), resolved against the version's own pages. The
 * live link table describes the live pages only, so a version reads its texts' links.
 */
export async function versionNeighbors(
  db: Db,
  version: Version,
  input: { page: string; direction: "out" | "in" | "both"; limit: number },
): Promise<Neighbors> {
  const page = await resolveVersionPage(db, version, input.page);
  const neighbors: Neighbors["neighbors"] = [];
  const seen = new Set<string>();
  if (input.direction !== "in") {
    for (const l of await versionLinksOf(db, version, page)) {
      if (seen.has(`out:${l.key}`)) continue;
      seen.add(`out:${l.key}`);
      neighbors.push({
        page: l.page,
        title: l.title,
        relation: "links_to",
        anchor_text: l.label,
        section: l.section,
        exists: l.exists,
      });
    }
  }
  if (input.direction !== "out") {
    for (let after: string | null = null;;) {
      const batch = await versionPages(db, version, {
        afterKey: after,
        limit: BATCH,
        prefix: null,
      });
      for (const other of batch) {
        if (other.id === page.id || seen.has(`in:${other.path_key}`)) continue;
        const link = (await versionLinksOf(db, version, other)).find((l) =>
          l.key === page.path_key
        );
        if (!link) continue;
        seen.add(`in:${other.path_key}`);
        neighbors.push({
          page: other.path,
          title: other.title,
          relation: "linked_from",
          anchor_text: link.label,
          section: link.section,
          exists: true,
        });
      }
      if (batch.length < BATCH) break;
      after = batch[batch.length - 1]!.path_key;
    }
  }
  return {
    wiki: version.wikiId,
    page: page.path,
    title: page.title,
    neighbors: neighbors.slice(0, input.limit),
    truncated: neighbors.length > input.limit,
    version: version.name,
  };
}

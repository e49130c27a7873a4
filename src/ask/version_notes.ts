import type { Db } from "../db/db.ts";
import type { Citation, FrontierNote } from "./ask_schema.ts";
import { pathKey } from "../markdown/paths.ts";
import { versionSharesPage } from "../search/version_index.ts";
import { versionPageIndex } from "../versions/version_pages.ts";
import { LATEST, resolveVersion, type Version } from "../versions/versions.ts";

/**
 * Frontier notes for an answer from a version older than the wiki's default: each cited page
 * that changed between the version asked for and the default (the live pages or a newer
 * version) is named, so the caller knows the answer may differ in the version most readers use.
 */
export async function versionChangeNotes(
  db: Db,
  versions: Map<string, Version>,
  citations: Citation[],
): Promise<FrontierNote[]> {
  const notes: FrontierNote[] = [];
  for (const version of versions.values()) {
    if (version.isDefault) continue;
    const fallback = await resolveVersion(db, version.wikiId);
    if (fallback && fallback.createdAt <= version.createdAt) continue;
    const asked = await versionPageIndex(db, version);
    const other = fallback ? await versionPageIndex(db, fallback) : null;
    const changed = new Set<string>();
    for (const c of citations.filter((c) => c.wiki === version.wikiId)) {
      const pinned = asked.byKey.get(pathKey(c.page));
      if (!pinned) continue;
      const same = other
        ? other.byPage.get(pinned.page_id)?.revision === pinned.revision
        : versionSharesPage(db, version.id, pinned.page_id);
      if (!same) changed.add(c.page);
    }
    if (changed.size === 0) continue;
    const newer = fallback?.name ?? LATEST;
    notes.push({
      kind: "version_changed",
      note: `This answer is from version "${version.name}"; ${
        [...changed].map((p) => `"${p}"`).join(", ")
      } changed in the default version "${newer}": ask without \`version\` for the current text`,
      pages: [...changed],
    });
  }
  return notes;
}

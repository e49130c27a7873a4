import { z } from "zod";
import type { Db } from "../db/db.ts";
import { type PageAtRevision, selectFailingSources, selectSourceCommits } from "./store.ts";

/**
 * The fields a page of a synced space carries in search results, `get_page` and `ask`
 * citations; absent for spaces that are not synced from Git.
 */
export const sourceFreshnessFields = {
  source_commit: z.string().nullable().optional().describe(
    "Synced spaces: the Git commit this revision of the page came from",
  ),
  synced_at: z.string().nullable().optional().describe(
    "Synced spaces: when the space last synced from its repository",
  ),
};

/** Where a page stands against its Git source, as search and `selectSourceCommits` read it. */
export type SourceFreshnessRow = {
  /** Whether the page's space is synced from Git; the fields are absent for other spaces. */
  synced: boolean;
  source_commit: string | null;
  last_synced_at: Date | string | null;
};

/**
 * The `sourceFreshnessFields` of a page, the one formatting shared by search results, `get_page`
 * and `ask` citations: the revision's commit and the space's last sync (ISO 8601) for a page
 * of a synced space, nothing for others.
 */
export function sourceFreshness(
  row: SourceFreshnessRow,
): { source_commit?: string | null; synced_at?: string | null } {
  if (!row.synced) return {};
  return {
    source_commit: row.source_commit,
    synced_at: row.last_synced_at ? new Date(row.last_synced_at).toISOString() : null,
  };
}

/** Adds `source_commit` and `synced_at` to the items that are pages of synced spaces. */
export async function addSourceFreshness<T extends PageAtRevision>(
  db: Db,
  items: T[],
): Promise<void> {
  const rows = await selectSourceCommits(db, items);
  if (rows.length === 0) return;
  const key = (i: PageAtRevision) => `${i.wiki}\u0000${i.page}\u0000${i.revision}`;
  const found = new Map(rows.map((r) => [key(r), r]));
  for (const item of items) {
    const row = found.get(key(item));
    // Only pages of synced spaces are found (`selectSourceCommits` joins their sources).
    if (row) Object.assign(item, sourceFreshness({ ...row, synced: true }));
  }
}

/** A `stale_source` note for each asked space whose latest syncs from Git failed. */
export async function failingSourceNotes(
  db: Db,
  wikiIds: string[],
): Promise<{ kind: "stale_source"; note: string }[]> {
  const failing = await selectFailingSources(db, wikiIds);
  return failing.map((f) => ({
    kind: "stale_source" as const,
    note: `Space "${f.wiki_id}" could not be synced from its Git repository ` +
      `(${f.failures} failed ${f.failures === 1 ? "sync" : "syncs"} in a row; last success ` +
      `${f.last_synced_at ? new Date(f.last_synced_at).toISOString() : "never"}): ` +
      `its pages may be out of date. ${f.last_error ?? ""}`.trim(),
  }));
}

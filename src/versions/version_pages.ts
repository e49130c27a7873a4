import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import { extractLinks } from "../markdown/links.ts";
import { cleanPath, keySuffixes, pathKey } from "../markdown/paths.ts";
import type { PageRow } from "../db/page_row.ts";
import {
  selectRevisionsOf,
  selectVersionPageIndex,
  selectVersionPages,
  type VersionPageRow,
} from "./store.ts";
import type { Version } from "./versions.ts";

/** Where each page of a version stands: by path key and by page id, with the pinned revision. */
export type VersionPageIndex = {
  byKey: Map<string, { page_id: number; revision: number }>;
  byPage: Map<number, { revision: number; path_key: string }>;
};

/**
 * A version's pages, read once per process: a version never changes after it is published
 * (its id is never reused), so its index is remembered (the 200 versions used last).
 */
const indexesOf = new WeakMap<Db, Map<number, Promise<VersionPageIndex>>>();

/** The pages of a version by path key and by page id. */
export function versionPageIndex(db: Db, version: Version): Promise<VersionPageIndex> {
  // Read on the primary and kept for every read handle (a replica's shares its primary's): a
  // replica behind the version's publication would give it no pages, and that would be kept.
  const home = db.home ?? db;
  let indexes = indexesOf.get(home);
  if (!indexes) indexesOf.set(home, indexes = new Map());
  let index = indexes.get(version.id);
  if (!index) {
    index = selectVersionPageIndex(home, version.id).then((rows) => ({
      byKey: new Map(rows.map((r) => [r.path_key, { page_id: r.page_id, revision: r.revision }])),
      byPage: new Map(rows.map((r) => [r.page_id, { revision: r.revision, path_key: r.path_key }])),
    }));
    index.catch(() => indexes.delete(version.id));
    if (indexes.size >= 200) indexes.delete(indexes.keys().next().value!);
    indexes.set(version.id, index);
  }
  return index;
}

/** A page of a version as a page row: its path, title and text at the pinned revision. */
export type VersionPage = PageRow & { live_revision: number | null };

function asPageRow(wikiId: string, r: VersionPageRow): VersionPage {
  return {
    id: r.page_id,
    wiki_id: wikiId,
    path: r.path,
    path_key: r.path_key,
    name_key: r.path_key.slice(r.path_key.lastIndexOf("/") + 1),
    title: r.title,
    markdown: r.markdown,
    revision: r.revision,
    content_hash: r.content_hash,
    created_at: r.created_at,
    updated_at: r.created_at,
    live_revision: r.live_revision,
  };
}

/**
 * Finds a page of a version by its path (as the version has it) or page id; `page_not_found`
 * names the version, so the caller does not take it for a page missing from the live wiki.
 */
export async function resolveVersionPage(
  db: Db,
  version: Version,
  ref: string,
): Promise<VersionPage> {
  const path = cleanPath(ref);
  const index = await versionPageIndex(db, version);
  let key = path ? pathKey(path) : null;
  if ((key === null || !index.byKey.has(key)) && /^\d{1,15}$/.test(ref.trim())) {
    key = index.byPage.get(Number(ref.trim()))?.path_key ?? key;
  }
  if (key === null || !index.byKey.has(key)) {
    const suggestions = similar(index, key ?? "");
    throw new AppError(
      "page_not_found",
      `Page "${ref}" not found in version "${version.name}" of wiki "${version.wikiId}"${
        suggestions.length > 0
          ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(", ")}?`
          : ""
      }`,
      { suggestions },
    );
  }
  const [row] = await selectVersionPages(db, version.id, [key], {
    afterKey: null,
    limit: 1,
    prefix: null,
  });
  if (!row) throw new AppError("page_not_found", `Page "${ref}" not found in "${version.name}"`);
  return asPageRow(version.wikiId, row);
}

/** Path keys of the version that share the last segment or start with the key (did you mean). */
function similar(index: VersionPageIndex, key: string): string[] {
  const name = key.slice(key.lastIndexOf("/") + 1);
  return [...index.byKey.keys()].filter((k) =>
    name && (k.endsWith(`/${name}`) || k === name || k.startsWith(key))
  ).slice(0, 3);
}

/** A batch of a version's pages in path-key order, with their text. */
export async function versionPages(
  db: Db,
  version: Version,
  page: { afterKey: string | null; limit: number; prefix: string | null },
): Promise<VersionPage[]> {
  return (await selectVersionPages(db, version.id, null, page)).map((r) =>
    asPageRow(version.wikiId, r)
  );
}

/** A link of a version's page, resolved against the version's pages. */
export type VersionLink = {
  page: string;
  key: string;
  title: string | null;
  exists: boolean;
  section: string | null;
  label: string | null;
};

/**
 * The links out of a page's text, resolved against the version as live links are
 * (`resolveLinksOfPages`): by path, then by the longest path ending it, then by last segment.
 */
export async function versionLinksOf(
  db: Db,
  version: Version,
  page: { path: string; markdown: string },
): Promise<VersionLink[]> {
  const index = await versionPageIndex(db, version);
  const byName = new Map<string, string>();
  for (const key of index.byKey.keys()) byName.set(key.slice(key.lastIndexOf("/") + 1), key);
  return extractLinks(page.markdown, page.path).map((l) => {
    const key = index.byKey.has(l.targetKey)
      ? l.targetKey
      : keySuffixes(l.targetKey).find((k) => index.byKey.has(k)) ?? byName.get(l.targetKey) ??
        null;
    return {
      page: l.target,
      key: key ?? l.targetKey,
      title: null,
      exists: key !== null,
      section: l.section,
      label: l.label,
    };
  });
}

/** Whether a page's pinned revision is still its live one (the version shares its text). */
export function isShared(page: VersionPage): boolean {
  return page.live_revision === page.revision;
}

/** The markdown of pinned revisions by page id (a version's passages quote from it). */
export async function pinnedTexts(
  db: Db,
  pairs: { page_id: number; revision: number }[],
): Promise<Map<number, string>> {
  if (pairs.length === 0) return new Map();
  return new Map((await selectRevisionsOf(db, pairs)).map((r) => [r.page_id, r.markdown]));
}

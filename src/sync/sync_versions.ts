import type { Db } from "../db/db.ts";
import { selectVersionPattern, selectVersions } from "../versions/mod.ts";
import { publishVersion } from "../versions/versions.ts";
import type { RepoTree } from "./fetch_tree.ts";

/** A Git ref a sync publishes as a version: its full name, commit and the version's name. */
export type VersionRef = { ref: string; oid: string; name: string };

/**
 * The refs of a repository that the space's pattern names and that are not versions yet, in
 * release order (names compared with their numbers as numbers: v1.9 before v1.10). The pattern
 * is a glob (`*` any characters): `v*` or `tags/v*` matches tags, `branches/release-*` branches.
 */
export async function refsToPublish(
  db: Db,
  wikiId: string,
  listRefs: () => Promise<{ ref: string; oid: string }[]>,
): Promise<VersionRef[]> {
  const pattern = await selectVersionPattern(db, wikiId);
  if (!pattern) return [];
  const refs = await listRefs();
  const kind = pattern.startsWith("branches/") ? "heads" : "tags";
  const glob = pattern.replace(/^(tags|branches)\//, "");
  const match = new RegExp(
    `^refs/${kind}/${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`,
  );
  const known = await selectVersions(db, wikiId);
  const done = new Set(known.flatMap((v) => [v.source_ref, v.name.toLowerCase()]));
  return refs.filter((r) => match.test(r.ref))
    .map((r) => ({ ...r, name: versionNameOf(r.ref) }))
    .filter((r) => r.name && !done.has(r.ref) && !done.has(r.name.toLowerCase()))
    .sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
}

/** `refs/tags/v1.0` → `v1.0`; `refs/heads/release/2` → `release-2` (no `/` in a version name). */
function versionNameOf(ref: string): string {
  return ref.replace(/^refs\/(tags|heads)\//, "").replace(/\//g, "-")
    .replace(/[^A-Za-z0-9._+-]/g, "").replace(/^[^A-Za-z0-9]+/, "").slice(0, 64);
}

/**
 * Brings the space to each ref's tree in turn and publishes it as a version (the pages'
 * revisions at that tag; nothing copied), through the sync's own `apply`. Returns the files of
 * the last tree applied (the next sync's "previous"), or null when there was nothing to publish.
 */
export async function publishRefs(
  db: Db,
  wikiId: string,
  refs: VersionRef[],
  fetch: (ref: VersionRef) => Promise<RepoTree>,
  apply: (tree: RepoTree, previous: Record<string, string>) => Promise<unknown>,
  previous: Record<string, string>,
): Promise<Record<string, string> | null> {
  let files: Record<string, string> | null = null;
  for (const ref of refs) {
    const tree = await fetch(ref);
    await apply(tree, files ?? previous);
    files = Object.fromEntries(tree.files);
    await publishVersion(db, wikiId, {
      name: ref.name,
      sourceRef: ref.ref,
      sourceCommit: tree.commit,
    }, null);
  }
  return files;
}

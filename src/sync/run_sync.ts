import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { importPages, type ImportSummary } from "../importer/import_pages.ts";
import { type SourcePage, toPage } from "../importer/read_sources.ts";
import { pathKey } from "../markdown/paths.ts";
import { readDocsLayout } from "../navigation/docs_layout.ts";
import { deletePage, renamePage } from "../pages/rename_page.ts";
import type { WriteBy } from "../pages/write_page.ts";
import {
  fetchTree,
  remoteHead,
  remoteRefs,
  type RepoTree,
  SYNC_LIMITS,
  type SyncLimits,
} from "./fetch_tree.ts";
import type { ResolveDns } from "./git_http.ts";
import { openToken } from "./secret_box.ts";
import { publishRefs, refsToPublish } from "./sync_versions.ts";
import {
  type GitSourceRow,
  recordSyncFailure,
  recordSyncSuccess,
  selectGitSource,
} from "./store.ts";
import { selectPageHashes } from "../pages/mod.ts";

/** What a sync did: the import's counts, renames, and the commit it brought the space to. */
export type SyncSummary = ImportSummary & {
  status: "synced" | "unchanged";
  commit: string;
  renamed: number;
};

/** Test hooks: smaller limits, a fake resolver. */
export type SyncOptions = { limits?: SyncLimits; resolve?: ResolveDns };

const LFS_POINTER = /^version https:\/\/git-lfs\.github\.com\/spec\/v1/;

/**
 * Brings a space to the head commit of its repository's branch: fetch (depth 1, in memory),
 * then renames (a blob that left one path and appeared at another: our rename, so links to
 * the page are rewritten), then the import's code path for new and changed files (each page
 * in its own transaction, a revision carrying the commit and its author), then deletes of
 * pages the tree no longer has. The same commit again writes nothing. The outcome, success or
 * failure, is recorded on the space for its freshness.
 */
export async function syncSpace(
  deps: Pick<Deps, "db" | "embedder" | "log" | "config">,
  wikiId: string,
  options: SyncOptions = {},
): Promise<SyncSummary> {
  const source = await selectGitSource(deps.db, wikiId);
  if (!source) {
    throw new AppError("not_found", `Space "${wikiId}" is not connected to a Git repository`);
  }
  try {
    const token = source.token_sealed
      ? await openToken(deps.config.sync.secretKey, wikiId, source.token_sealed)
      : null;
    const fetchOptions = {
      allowHosts: deps.config.sync.allowHosts,
      limits: options.limits ?? SYNC_LIMITS,
      resolve: options.resolve,
    };
    // Tags (or branches) the owner's pattern names become versions first, oldest first; the
    // branch's head is then applied over the last of them.
    const refs = await refsToPublish(
      deps.db,
      wikiId,
      () => remoteRefs({ ...source, token }, fetchOptions),
    );
    const limits = options.limits ?? SYNC_LIMITS;
    const tagged = await publishRefs(
      deps.db,
      wikiId,
      refs,
      (ref) => fetchTree({ ...source, token, branch: ref.ref }, fetchOptions),
      (tree, files) => applyTree(deps, { ...source, files }, tree, limits),
      source.files,
    );
    if (tagged) Object.assign(source, { files: tagged, last_commit: null });
    // The same commit again: nothing fetched, nothing written.
    const head = await remoteHead({ ...source, token }, fetchOptions);
    if (head !== null && head === source.last_commit) {
      await recordSyncSuccess(deps.db, wikiId, head, source.files);
      return {
        status: "unchanged",
        commit: head,
        added: 0,
        updated: 0,
        unchanged: Object.keys(source.files).length,
        renamed: 0,
        deleted: 0,
        failed: [],
      };
    }
    const tree = await fetchTree({ ...source, token }, fetchOptions);
    const summary = await applyTree(deps, source, tree, options.limits ?? SYNC_LIMITS);
    await recordSyncSuccess(deps.db, wikiId, tree.commit, Object.fromEntries(tree.files));
    deps.log.info("space synced", { wiki: wikiId, ...summary, failed: summary.failed.length });
    return summary;
  } catch (error) {
    const reason = error instanceof AppError ? error.detail : String(error);
    await recordSyncFailure(deps.db, wikiId, reason).catch(() => {});
    deps.log.warn("sync failed", { wiki: wikiId, error: reason });
    if (error instanceof AppError) throw error;
    throw new AppError("sync_failed", `The sync of "${wikiId}" failed: ${reason}`);
  }
}

async function applyTree(
  deps: Pick<Deps, "db" | "embedder" | "log">,
  source: GitSourceRow,
  tree: RepoTree,
  limits: SyncLimits,
): Promise<SyncSummary> {
  const wikiId = source.wiki_id;
  const commit = { id: tree.commit, author: tree.author };
  const by: WriteBy = { author: null, source: "sync", commit };
  const previous = new Map(Object.entries(source.files));
  // The same reader as an import's: the format, its navigation, each page file's path.
  const layout = await readDocsLayout({
    names: [...tree.files.keys()],
    read: (name) => tree.readBlob(tree.files.get(name)!),
  });
  const pagePath = (file: string) => layout.pages.get(file) ?? layout.pathOf(file);

  // Renames first: the same blob gone from one path and new at another.
  let renamed = 0;
  let stored = await selectPageHashes(deps.db, wikiId);
  const gone = new Map<string, string[]>();
  for (const [file, oid] of previous) {
    if (!tree.files.has(file)) gone.set(oid, [...gone.get(oid) ?? [], file]);
  }
  for (const [file, oid] of tree.files) {
    if (previous.has(file)) continue;
    const from = gone.get(oid)?.shift();
    const fromPath = from && pagePath(from);
    const toPath = pagePath(file);
    if (!fromPath || !toPath || !stored.has(pathKey(fromPath)) || stored.has(pathKey(toPath))) {
      continue;
    }
    try {
      await renamePage(deps, { wikiId, path: fromPath, newPath: toPath }, by);
      renamed++;
    } catch (error) {
      // Written as new and deleted as gone below instead.
      if (!(error instanceof AppError)) throw error;
    }
  }
  if (renamed > 0) stored = await selectPageHashes(deps.db, wikiId);

  // New and changed files through the import's code path.
  const pages: SourcePage[] = [...tree.skipped];
  const keys = new Set<string>();
  let unchanged = 0;
  for (const [file, oid] of tree.files) {
    const path = pagePath(file);
    if (!path) continue; // a nav or config file, or a file outside the docs' root
    keys.add(pathKey(path));
    if (path && previous.get(file) === oid && stored.has(pathKey(path))) {
      unchanged++;
      continue;
    }
    const bytes = await tree.readBlob(oid);
    if (!bytes) {
      pages.push({ name: file, error: `is over ${limits.fileBytes} bytes, the limit of one file` });
    } else if (LFS_POINTER.test(new TextDecoder().decode(bytes.subarray(0, 64)))) {
      pages.push({ name: file, error: "is a Git LFS pointer: LFS files are not synced" });
    } else {
      const page = toPage(file, `${path}.md`, bytes);
      if ("markdown" in page) page.markdown = layout.rewrite(page.markdown, file);
      pages.push(page);
    }
  }
  const summary = await importPages(deps, wikiId, pages, {
    source: "sync",
    commit,
    nav: layout.nav,
  });

  // Pages the tree no longer has (and pages the space had before it was connected).
  let deleted = 0;
  for (const key of stored.keys()) {
    if (keys.has(key)) continue;
    try {
      await deletePage(deps, { wikiId, path: key }, by);
      deleted++;
    } catch (error) {
      if (!(error instanceof AppError && error.code === "page_not_found")) throw error;
    }
  }
  return {
    ...summary,
    status: "synced",
    commit: tree.commit,
    unchanged: summary.unchanged + unchanged,
    renamed,
    deleted,
  };
}

import { AppError } from "../errors.ts";
import { isDocsFile } from "../navigation/docs_layout.ts";
import { guardedGitHttp, type ResolveDns } from "./git_http.ts";
import { createMemFs } from "./mem_fs.ts";

/**
 * What one sync reads at most (docs/guide/Git sync.md): pack bytes, markdown files, markdown
 * file bytes, and what the pack's objects inflate to, each (`objectBytes`, any file of the
 * commit, markdown or not) and together (`inflatedBytes`), checked as the pack arrives.
 */
export type SyncLimits = {
  packBytes: number;
  files: number;
  fileBytes: number;
  objectBytes: number;
  inflatedBytes: number;
};

/** The documented limits. */
export const SYNC_LIMITS: SyncLimits = {
  packBytes: 50 * 1024 * 1024,
  files: 5_000,
  fileBytes: 1024 * 1024,
  objectBytes: 50 * 1024 * 1024,
  inflatedBytes: 200 * 1024 * 1024,
};

/** Markdown files a sync takes; everything else in the repository is left alone. */
export const MARKDOWN_FILE = /\.(md|markdown|mdx)$/i;

/** The markdown files of a branch's head commit under a folder. */
export type RepoTree = {
  commit: string;
  /** The commit's author as `Name <email>`. */
  author: string | null;
  /** Folder-relative path of each markdown file to its blob id. */
  files: Map<string, string>;
  /** Entries left out, with why (submodules, symlinks). */
  skipped: { name: string; error: string }[];
  /** A blob's bytes; `null` when it is over the per-file limit. */
  readBlob(oid: string): Promise<Uint8Array | null>;
};

/** Where to fetch from. */
export type RepoSource = { url: string; branch: string; folder: string; token: string | null };

/**
 * Fetches the head commit of one branch, depth 1, into memory with isomorphic-git (imported
 * here only, on first use, so the server starts without it) and lists its markdown files.
 * isomorphic-git runs no hooks and fetches no submodules or LFS objects; submodule entries
 * are reported as skipped, LFS pointers by the caller.
 */
export async function fetchTree(
  source: RepoSource,
  options: { allowHosts: string[]; limits: SyncLimits; resolve?: ResolveDns },
): Promise<RepoTree> {
  const git = (await import("isomorphic-git")).default;
  const fs = createMemFs();
  const dir = "/repo";
  const http = guardedGitHttp({
    allowHosts: options.allowHosts,
    maxBytes: options.limits.packBytes,
    pack: { objectBytes: options.limits.objectBytes, inflatedBytes: options.limits.inflatedBytes },
    resolve: options.resolve,
  });
  const headers = authHeaders(source);
  try {
    await git.clone({
      fs,
      http,
      dir,
      url: source.url,
      ref: source.branch,
      singleBranch: true,
      depth: 1,
      noCheckout: true,
      // A tag (a version's sync, `refs/tags/<name>`) is fetched with the tags; a branch without.
      noTags: !source.branch.startsWith("refs/tags/"),
      headers,
    });
  } catch (error) {
    throw asSyncError(error, source);
  }
  const commit = await git.resolveRef({ fs, dir, ref: `refs/remotes/origin/${source.branch}` })
    .catch(() => git.resolveRef({ fs, dir, ref: "HEAD" }));
  const { commit: info } = await git.readCommit({ fs, dir, oid: commit });
  const author = info.author ? `${info.author.name} <${info.author.email}>` : null;

  const files = new Map<string, string>();
  const skipped: RepoTree["skipped"] = [];
  const folder = source.folder.replace(/^\/+|\/+$/g, "");
  const walk = async (oid: string, prefix: string) => {
    const { tree } = await git.readTree({ fs, dir, oid });
    for (const entry of tree) {
      if (entry.path.startsWith(".") && entry.path !== ".gitbook.yaml") continue;
      const path = prefix ? `${prefix}/${entry.path}` : entry.path;
      if (entry.type === "tree") await walk(entry.oid, path);
      else if (entry.type === "commit") {
        skipped.push({ name: path, error: "is a submodule: submodules are not synced" });
      } else if (isDocsFile(path)) {
        if (entry.mode === "120000") {
          skipped.push({ name: path, error: "is a symbolic link: links are not followed" });
          continue;
        }
        files.set(path, entry.oid);
        if (files.size > options.limits.files) {
          throw new AppError(
            "sync_failed",
            `The repository has over ${options.limits.files} markdown files` +
              (folder ? ` under "${folder}"` : "") + ": choose a smaller folder",
          );
        }
      }
    }
  };
  let root: string;
  try {
    root = folder
      ? (await git.readTree({ fs, dir, oid: commit, filepath: folder })).oid
      : (await git.readTree({ fs, dir, oid: commit })).oid;
  } catch {
    throw new AppError(
      "sync_failed",
      `The folder "${folder}" is not in branch "${source.branch}" of the repository`,
    );
  }
  await walk(root, "");
  return {
    commit,
    author,
    files,
    skipped,
    async readBlob(oid) {
      const { blob } = await git.readBlob({ fs, dir, oid });
      return blob.length > options.limits.fileBytes ? null : blob;
    },
  };
}

/**
 * The commit at the head of the branch, asked of the server without fetching any objects (the
 * ref advertisement), so a sync of an unchanged branch downloads no pack. Null when the branch
 * is not there.
 */
export async function remoteHead(
  source: RepoSource,
  options: RefOptions,
): Promise<string | null> {
  const head = `refs/heads/${source.branch}`;
  return (await listRefs(source, options, head)).find((r) => r.ref === head)?.oid ?? null;
}

/**
 * The server's tags and branches as `refs/tags/<name>` and `refs/heads/<name>` with their
 * commits (peeled tags left out), from the ref advertisement: no objects fetched.
 */
export async function remoteRefs(
  source: RepoSource,
  options: RefOptions,
): Promise<{ ref: string; oid: string }[]> {
  return (await listRefs(source, options))
    .filter((r) => /^refs\/(tags|heads)\//.test(r.ref) && !r.ref.endsWith("^{}"))
    .map((r) => ({ ref: r.ref, oid: r.oid }));
}

type RefOptions = { allowHosts: string[]; limits: SyncLimits; resolve?: ResolveDns };

/** The ref advertisement (v1: the GET of `info/refs`; no POST, no pack), under `prefix`. */
async function listRefs(source: RepoSource, options: RefOptions, prefix?: string) {
  const git = (await import("isomorphic-git")).default;
  const http = guardedGitHttp({
    allowHosts: options.allowHosts,
    maxBytes: options.limits.packBytes,
    resolve: options.resolve,
  });
  try {
    return await git.listServerRefs({
      http,
      url: source.url,
      headers: authHeaders(source),
      ...(prefix ? { prefix } : {}),
      protocolVersion: 1,
    });
  } catch (error) {
    throw asSyncError(error, source);
  }
}

function authHeaders(source: RepoSource): Record<string, string> {
  return source.token ? { Authorization: `Basic ${btoa(`x-access-token:${source.token}`)}` } : {};
}

function asSyncError(error: unknown, source: RepoSource): AppError {
  if (error instanceof AppError) return error;
  const e = error as { code?: string; data?: { statusCode?: number }; message?: string };
  const status = e?.data?.statusCode;
  if (status === 401 || status === 403) {
    return new AppError(
      "sync_failed",
      `The repository refused access (${status}): ` +
        (source.token ? "check the access token and its scopes" : "it needs an access token"),
    );
  }
  if (status === 404) return new AppError("sync_failed", "The repository was not found (404)");
  if (e?.code === "NotFoundError") {
    return new AppError("sync_failed", `The branch "${source.branch}" is not in the repository`);
  }
  return new AppError(
    "sync_failed",
    `The repository could not be fetched: ${e?.message ?? String(error)}`,
  );
}

import type { Db } from "../db/db.ts";
import type { PageRow } from "../db/page_row.ts";
import type { WriteDeps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { requireWellFormed } from "../lib/well_formed.ts";
import { type ParsedPage, parsePage } from "../markdown/parse_page.ts";
import { cleanPath, nameKey, pathKey } from "../markdown/paths.ts";
import { prepareChunks } from "../search/prepare_chunks.ts";
import { countLinks, MAX_LINKS } from "../markdown/links.ts";
import { indexChunks } from "../search/chunk_index.ts";
import { refuseSyncedWrite } from "../sources/refuse_synced_write.ts";
import {
  insertPage,
  insertRevision,
  lockPage,
  replaceLinks,
  resolveLinks,
  type RevisionBy,
  updatePage,
} from "./store.ts";
import { lockWikiForWrite, touchWiki } from "../wikis/mod.ts";

/** Largest page body accepted, in characters. */
export const MAX_MARKDOWN_CHARS = 2_000_000;

/**
 * Who wrote a change and through what (`api`, `web`, `import`, `rename`, `sync`…); a Git
 * sync adds the commit the content came from and that commit's author; an agent's accepted
 * proposal, the account whose agent proposed it and the client's name.
 */
export type WriteBy = {
  author?: string | null;
  source: string;
  commit?: { id: string; author: string | null };
  proposedBy?: string | null;
  proposedClient?: string | null;
};

/** A page write: new content at a path. */
export type PageWrite = {
  wikiId: string;
  path: string;
  markdown: string;
  /** An explicit title (an import's own field); otherwise taken from the markdown. */
  title?: string;
  /**
   * The revision the writer started from: the write fails with `revision_conflict` when the
   * page has moved on (0 means "the page must not exist yet"). Without it, the write goes
   * through as a new revision and the previous one stays in the history.
   */
  baseRevision?: number;
};

/** What a write did. */
export type WriteOutcome = { status: "created" | "updated" | "unchanged"; page: PageRow };

/** Checks and cleans a page path, throwing `invalid_path`. */
export function requirePath(raw: string): string {
  requireWellFormed("The page path", raw);
  const path = cleanPath(raw);
  if (!path) {
    throw new AppError(
      "invalid_path",
      `Page path "${raw}" is not valid: use non-empty segments separated by "/", without [ ] | # ^ ?`,
    );
  }
  return path;
}

/**
 * Checks a path a page is about to take (created or renamed to): `requirePath`, and not under
 * the `-` segment, where the web app's tools live (`/w/<id>/-/edit/…`). Pages that already
 * have such a path stay readable, writable and deletable through the API.
 */
export function requireNewPath(raw: string): string {
  const path = requirePath(raw);
  if (path.split("/")[0] === "-") {
    throw new AppError(
      "invalid_path",
      `Page path "${raw}" is not valid: a first segment "-" is reserved for the wiki's tools`,
    );
  }
  return path;
}

/** Parses a page, turning a parse failure into `invalid_markdown`. */
export async function parseOrThrow(
  path: string,
  markdown: string,
  title?: string,
): Promise<ParsedPage> {
  if (markdown.length > MAX_MARKDOWN_CHARS) {
    throw new AppError(
      "payload_too_large",
      `Page "${path}" is over ${MAX_MARKDOWN_CHARS} characters`,
    );
  }
  let parsed: ParsedPage;
  requireWellFormed(`Page "${path}" markdown`, markdown);
  const links = countLinks(markdown);
  if (links > MAX_LINKS) {
    throw new AppError(
      "payload_too_large",
      `Page "${path}" has ${links} links: at most ${MAX_LINKS} per page (a repeated link counts each time)`,
    );
  }
  if (title !== undefined) requireWellFormed(`Page "${path}" title`, title);
  try {
    parsed = await parsePage(path, markdown, title);
  } catch (error) {
    throw new AppError("invalid_markdown", `Page "${path}": ${(error as Error).message}`);
  }
  return parsed;
}

/**
 * Creates or updates a page. Links, their resolution across the wiki, chunks and the history
 * change in the same transaction as the page, so a reader never sees one without the other.
 */
export async function writePage(
  deps: WriteDeps,
  write: PageWrite,
  by: WriteBy,
): Promise<WriteOutcome> {
  const path = requirePath(write.path);
  const parsed = await parseOrThrow(path, write.markdown, write.title);
  const prepared = await prepareChunks(deps, parsed);
  return await deps.db.transaction(async (tx) => {
    await lockWiki(tx, write.wikiId, by);
    const key = pathKey(path);
    let existing = await lockPage(tx, write.wikiId, key);
    if (!existing) {
      if (write.baseRevision !== undefined && write.baseRevision !== 0) {
        throw conflict(path, write.baseRevision, 0);
      }
      requireNewPath(path);
      const created = await insertPage(tx, {
        wiki_id: write.wikiId,
        path,
        path_key: key,
        name_key: nameKey(path),
        title: parsed.title,
        markdown: write.markdown,
        content_hash: parsed.contentHash,
      });
      if (created) {
        await indexPage(tx, created, parsed, prepared, [created.path_key, created.name_key]);
        await insertRevision(tx, created, "create", byOf(by));
        return { status: "created" as const, page: created };
      }
      // A concurrent writer created it between our lookup and insert: update it instead.
      existing = (await lockPage(tx, write.wikiId, key))!;
    }
    if (write.baseRevision !== undefined && write.baseRevision !== existing.revision) {
      throw conflict(path, write.baseRevision, existing.revision);
    }
    // The page keeps the path it has (a write to "page" updates "Page"); renames move it.
    const current = existing.path === path
      ? parsed
      : await parseOrThrow(existing.path, write.markdown, write.title);
    const chunks = current === parsed ? prepared : await prepareChunks(deps, current);
    if (existing.content_hash === current.contentHash) {
      return { status: "unchanged" as const, page: existing };
    }
    const updated = await updatePage(tx, existing.id, {
      path: existing.path,
      path_key: existing.path_key,
      name_key: existing.name_key,
      title: current.title,
      markdown: write.markdown,
      content_hash: current.contentHash,
    });
    await indexPage(tx, updated, current, chunks, []);
    await insertRevision(tx, updated, "update", byOf(by));
    return { status: "updated" as const, page: updated };
  });
}

/** Stores what a parse yields for a page and re-resolves links to the given keys. */
export async function indexPage(
  tx: Db,
  page: PageRow,
  parsed: ParsedPage,
  prepared: Awaited<ReturnType<typeof prepareChunks>>,
  keys: string[],
) {
  await replaceLinks(tx, page.wiki_id, page.id, parsed.links);
  await resolveLinks(tx, page.wiki_id, page.id, keys);
  await indexChunks(tx, page.wiki_id, page.id, prepared.chunks, prepared.embedder);
  await touchWiki(tx, page.wiki_id);
}

/**
 * Takes the wiki's write lock (first thing in every page write); `wiki_not_found` if absent.
 * Given the writer, refuses writes other than a sync's to a space synced from Git.
 */
export async function lockWiki(tx: Db, wikiId: string, by?: WriteBy): Promise<void> {
  if (!await lockWikiForWrite(tx, wikiId)) {
    throw new AppError("wiki_not_found", `Wiki "${wikiId}" not found`);
  }
  if (by && by.source !== "sync") await refuseSyncedWrite(tx, wikiId);
}

/** The `revision_conflict` error, with the revision the page is at. */
export function conflict(path: string, base: number, current: number): AppError {
  return new AppError(
    "revision_conflict",
    current === 0
      ? `Page "${path}" does not exist (expected revision ${base})`
      : `Page "${path}" is at revision ${current}, not ${base}: reload it and apply your change again`,
    { current_revision: current },
  );
}

/** Normalises `WriteBy` for the history. */
export function byOf(by: WriteBy): RevisionBy {
  return {
    author: by.author ?? null,
    source: by.source,
    commit: by.commit,
    proposedBy: by.proposedBy ?? null,
    proposedClient: by.proposedClient ?? null,
  };
}

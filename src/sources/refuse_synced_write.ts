import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import { isGitSynced } from "./store.ts";

/**
 * Refuses a page write to a space synced from Git: its repository is the one place its pages
 * change, so an edit made here would be overwritten by the next sync (docs/decisions.md).
 */
export async function refuseSyncedWrite(tx: Db, wikiId: string): Promise<void> {
  if (await isGitSynced(tx, wikiId)) {
    throw new AppError(
      "space_synced",
      `Space "${wikiId}" is synced from a Git repository: change its pages there and sync, ` +
        "or disconnect the repository in the space's settings to edit them here",
    );
  }
}

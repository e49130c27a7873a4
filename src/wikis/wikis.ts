import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import { insertWiki, selectWiki } from "./store.ts";
import type { WikiRow } from "../db/wiki_row.ts";
import { WIKI_ID } from "../lib/urls.ts";

/** The id of the seeded public wiki holding the user guide. */
export const DOCS_WIKI_ID = "docs";

/**
 * Ids nobody can take through the app: the seeded guide's, and names of the service's own
 * paths and roles, which would read as official (`/w/api`, `/w/admin`).
 */
export const RESERVED_WIKI_IDS: ReadonlySet<string> = new Set([
  DOCS_WIKI_ID,
  "account",
  "admin",
  "api",
  "app",
  "auth",
  "connect",
  "dashboard",
  "help",
  "hub",
  "login",
  "logout",
  "mcp",
  "new",
  "oauth",
  "public",
  "root",
  "settings",
  "signin",
  "signout",
  "signup",
  "spaces",
  "static",
  "support",
  "system",
  "w",
  "well-known",
  "wiki",
  "www",
]);

/** What creating a wiki takes. */
export type NewWiki = {
  id: string;
  title?: string;
  description?: string;
  visibility?: "public" | "private";
  ownerAccountId?: string | null;
  ownerTeamId?: string | null;
  instructions?: string | null;
};

/** Checks a wiki id, throwing `invalid_wiki_id` with what is allowed. */
export function assertWikiId(id: string): void {
  if (!WIKI_ID.test(id)) {
    throw new AppError(
      "invalid_wiki_id",
      `Wiki id "${id}" must be 1-64 characters of a-z, 0-9 and inner hyphens`,
    );
  }
}

/** Creates a wiki; `wiki_exists` when the id is taken. */
export async function createWiki(db: Db, input: NewWiki): Promise<WikiRow> {
  assertWikiId(input.id);
  const wiki = await insertWiki(db, {
    id: input.id,
    title: input.title?.trim() || input.id,
    description: input.description?.trim() ?? "",
    visibility: input.visibility ?? "private",
    owner_account_id: input.ownerAccountId ?? null,
    owner_team_id: input.ownerTeamId ?? null,
    instructions: input.instructions ?? null,
  });
  if (!wiki) throw new AppError("wiki_exists", `Wiki "${input.id}" already exists`);
  return wiki;
}

/** Returns the wiki, creating it with `input`'s fields when it does not exist yet. */
export async function ensureWiki(
  db: Db,
  input: NewWiki,
): Promise<{ wiki: WikiRow; created: boolean }> {
  assertWikiId(input.id);
  const existing = await selectWiki(db, input.id);
  if (existing) return { wiki: existing, created: false };
  try {
    return { wiki: await createWiki(db, input), created: true };
  } catch (error) {
    // Another process created it between the two statements.
    if (error instanceof AppError && error.code === "wiki_exists") {
      return { wiki: (await selectWiki(db, input.id))!, created: false };
    }
    throw error;
  }
}

/** The wiki with this id, or null (an id that breaks `WIKI_ID` is never looked up). */
export async function findWiki(db: Db, id: string): Promise<WikiRow | null> {
  return WIKI_ID.test(id) ? await selectWiki(db, id) : null;
}

/** The wiki, or `wiki_not_found`. */
export async function getWiki(db: Db, id: string): Promise<WikiRow> {
  const wiki = await findWiki(db, id);
  if (!wiki) throw new AppError("wiki_not_found", `Wiki "${id}" not found`);
  return wiki;
}

import type { Credential } from "./credential.ts";
import type { Db } from "../db/db.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { WIKI_ID } from "../lib/urls.ts";
import type { WikiRow, WikiSummaryRow } from "../db/wiki_row.ts";
import { canWrite, type Role } from "./role.ts";
import { selectPublicWikiIds, selectSpaceRole, selectSpacesOf, selectWiki } from "./store.ts";
import { SPACE_LIST_HINTS, type Surface, WIKI_LIST_HINTS, wikiNotFound } from "./suggestions.ts";

export type { Role, Surface };

/**
 * Who asks: a visitor without credentials, a person signed in to the web app, or a bearer
 * credential (account token, space token, OAuth grant) on MCP or REST.
 */
export type Caller =
  | { kind: "anonymous" }
  | { kind: "session"; accountId: string }
  | Credential;

/** Most public wikis a not-found message looks through for close ids (the first, by id). */
const SUGGESTION_CANDIDATES = 200;

/** The caller without credentials. */
export const ANONYMOUS: Caller = { kind: "anonymous" };

/**
 * What the caller wants to do: `read` the wiki, see what only `member`s see (usage, tokens),
 * `write` its pages, or `admin`ister it (settings, members, audit log).
 */
export type Need = "read" | "member" | "write" | "admin";

/** A wiki the caller may use for `need`, with the caller's role in it (null: a visitor). */
export type Access = { wiki: WikiRow; role: Role | null };

/** A space a caller reaches, with the role of the caller's account in it. */
export type Space = WikiSummaryRow & { role: Role };

/**
 * May this caller do `need` to wiki `wikiId`? Returns the wiki and the caller's role, or
 * throws the error the surface shows. The rules, in one place:
 *
 * - A bearer credential reaches its spaces only (see `reachableSpaces`), public or not:
 *   anything else is "not one of your spaces", with close ids of its spaces suggested.
 * - A visitor (signed out, or signed in to the web app) reads every public wiki, and reaches
 *   the spaces of their account with their role.
 * - Reading needs no role (a viewer's is enough); `member` and `write` need a role that writes
 *   (owner, admin or member); `admin` needs owner or admin.
 * - A private wiki the caller cannot reach is `wiki_not_found`, worded exactly as for an id
 *   that does not exist, so its existence is not revealed; suggestions come only from wikis
 *   the caller reaches.
 *
 * `purpose` words a refusal ("see its usage"); by default the need's own words.
 */
export async function authorize(
  deps: Pick<Deps, "db" | "config">,
  caller: Caller,
  wikiId: string,
  need: Need,
  surface: Surface,
  purpose?: string,
): Promise<Access> {
  if (caller.kind === "anonymous" || caller.kind === "session") {
    return await authorizeVisitor(deps, caller, wikiId, need, surface, purpose);
  }
  const spaces = await reachableSpaces(deps.db, caller);
  if (caller.kind === "space_token" && wikiId !== caller.spaceId) {
    throw new AppError(
      "forbidden",
      `This token opens space "${caller.spaceId}" only, not "${wikiId}"`,
    );
  }
  const space = spaces.find((s) => s.id === wikiId);
  if (!space) {
    if (caller.kind === "space_token") {
      throw new AppError("forbidden", "This token's space is no longer reachable");
    }
    throw wikiNotFound(
      `Space "${wikiId}" is not one of your spaces`,
      wikiId,
      spaces.map((s) => s.id),
      SPACE_LIST_HINTS[surface],
    );
  }
  const { role, page_count: _, ...wiki } = space;
  requireRole(wikiId, role, need, purpose);
  return { wiki, role };
}

/**
 * The spaces a caller reaches now: an account token or a session, all of its account's
 * spaces; a space token, its one space while its account can still reach it (a member who
 * leaves a team loses the space's tokens with it); an OAuth token, the spaces granted at
 * consent that its account still reaches; a signed-out visitor, none.
 */
export async function reachableSpaces(db: Db, caller: Caller): Promise<Space[]> {
  if (caller.kind === "anonymous") return [];
  const spaces = await selectSpacesOf(db, caller.accountId);
  if (caller.kind === "space_token") return spaces.filter((s) => s.id === caller.spaceId);
  if (caller.kind === "oauth") return spaces.filter((s) => caller.spaceIds.includes(s.id));
  return spaces;
}

/** Whether an account writes in a space: its role there is one that writes (`canWrite`). */
export async function accountWrites(db: Db, accountId: string, wikiId: string): Promise<boolean> {
  return canWrite(await selectSpaceRole(db, accountId, wikiId));
}

/**
 * May this account mint a token for space `spaceId`? Returns the space's id, or throws: a space
 * where the account has no role is "not one of this account's spaces"; a viewer reads it, so
 * its tokens may only read (`proposes`: the token would also propose edits). For checks made
 * before any caller exists.
 */
export async function authorizeSpaceToken(
  db: Db,
  accountId: string,
  spaceId: string | undefined,
  proposes: boolean,
): Promise<string> {
  const role = spaceId ? await selectSpaceRole(db, accountId, spaceId) : null;
  if (!spaceId || !role) {
    throw new AppError("wiki_not_found", `Space "${spaceId}" is not one of this account's spaces`);
  }
  if (role === "viewer" && proposes) {
    throw new AppError(
      "forbidden",
      `You can read space "${spaceId}" but not change it, so its tokens may only read`,
    );
  }
  return spaceId;
}

/**
 * The space an MCP call means when its `space` parameter may be left out: the named one if
 * the credential reaches it, the token's own space for a space token, the only space of an
 * account that has one; otherwise an error that lists the choices. Never a silent fallback
 * to another space.
 */
export async function chooseSpace(
  deps: Pick<Deps, "db" | "config">,
  credential: Credential,
  id: string | undefined,
): Promise<string> {
  if (id !== undefined) return (await authorize(deps, credential, id, "read", "mcp")).wiki.id;
  if (credential.kind === "space_token") {
    return (await authorize(deps, credential, credential.spaceId, "read", "mcp")).wiki.id;
  }
  const spaces = await reachableSpaces(deps.db, credential);
  if (spaces.length === 1) return spaces[0]!.id;
  throw new AppError(
    "bad_request",
    spaces.length === 0
      ? "This account has no space yet"
      : `Name a space with "space": one of ${spaces.map((s) => `"${s.id}"`).join(", ")}`,
  );
}

async function authorizeVisitor(
  deps: Pick<Deps, "db" | "config">,
  caller: Extract<Caller, { kind: "anonymous" | "session" }>,
  wikiId: string,
  need: Need,
  surface: Surface,
  purpose: string | undefined,
): Promise<Access> {
  // An id that breaks `WIKI_ID` is never looked up.
  const wiki = WIKI_ID.test(wikiId) ? await selectWiki(deps.db, wikiId) : null;
  const role = wiki && caller.kind === "session"
    ? await selectSpaceRole(deps.db, caller.accountId, wiki.id)
    : null;
  if (!wiki || (!role && wiki.visibility !== "public")) {
    const [publicIds, spaces] = await Promise.all([
      selectPublicWikiIds(deps.db, SUGGESTION_CANDIDATES),
      reachableSpaces(deps.db, caller),
    ]);
    const candidates = [...new Set([...publicIds, ...spaces.map((s) => s.id)])];
    // The web names no visibility: a signed-in person may have meant one of their spaces.
    const message = surface === "web"
      ? `Wiki "${wikiId}" not found`
      : `Public wiki "${wikiId}" not found`;
    throw wikiNotFound(message, wikiId, candidates, WIKI_LIST_HINTS[surface]);
  }
  if (!role && need !== "read" && caller.kind === "anonymous") {
    throw new AppError("unauthorized", `Sign in to ${purpose ?? "change this wiki"}`);
  }
  requireRole(wikiId, role, need, purpose);
  return { wiki, role };
}

/** Throws `forbidden` when `role` is not enough for `need`. */
function requireRole(wikiId: string, role: Role | null, need: Need, purpose?: string): void {
  if (need === "read") return;
  if (need === "admin") {
    if (role === "owner" || role === "admin") return;
    throw new AppError(
      "forbidden",
      `Only owners and admins of "${wikiId}" can ${purpose ?? "do this"}`,
    );
  }
  if (canWrite(role)) return;
  if (role === "viewer") {
    throw new AppError(
      "forbidden",
      `You can read "${wikiId}" but not ${
        purpose ?? (need === "write" ? "change it" : "see this")
      }: ask an owner or admin for a member's role`,
    );
  }
  throw new AppError(
    "forbidden",
    `Only members of "${wikiId}" can ${purpose ?? (need === "write" ? "change it" : "see this")}`,
  );
}

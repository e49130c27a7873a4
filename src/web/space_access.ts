import type { Context } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { selectSpacesOf, selectWiki, type WikiRow } from "../wikis/store.ts";

/** What a person may do in a wiki through the web app. */
export type WebAccess = "read" | "write" | "admin";

/** A wiki as the signed-in person (or a visitor) sees it, with their role if any. */
export type WebSpace = { wiki: WikiRow; role: "owner" | "admin" | "member" | null };

/**
 * Loads a wiki for a web page and checks what the visitor may do: anyone reads a public wiki;
 * members read and write their spaces; owners and admins manage them. A private wiki the
 * visitor cannot reach is `wiki_not_found`, signed in or out, exactly as for an id that does
 * not exist, so its existence is not revealed (the 404 page links to sign-in with `next`, for
 * an owner who was signed out). Signed out, changing a public wiki asks to sign in.
 */
export async function loadWebSpace(
  deps: Pick<Deps, "db">,
  c: Context,
  wikiId: string,
  need: WebAccess,
): Promise<WebSpace> {
  const account = c.get("account");
  const wiki = await selectWiki(deps.db, wikiId);
  const notFound = new AppError("wiki_not_found", `Wiki "${wikiId}" not found`);
  if (!wiki) throw notFound;
  const role = account
    ? (await selectSpacesOf(deps.db, account.id)).find((s) => s.id === wikiId)?.role ?? null
    : null;
  if (!role) {
    if (wiki.visibility !== "public") throw notFound;
    if (need === "read") return { wiki, role };
    if (!account) throw new AppError("unauthorized", "Sign in to change this wiki");
    throw new AppError("forbidden", `Only members of "${wikiId}" can change it`);
  }
  if (need === "admin" && role === "member") {
    throw new AppError("forbidden", `Only owners and admins of "${wikiId}" can do this`);
  }
  return { wiki, role };
}

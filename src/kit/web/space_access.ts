import type { Context } from "hono";
import { type Access, authorize, type Need } from "../../access/access_policy.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";

/** What a person may do in a wiki through the web app. */
export type WebAccess = Need;

/** A wiki as the signed-in person (or a visitor) sees it, with their role if any. */
export type WebSpace = Access;

/**
 * Loads a wiki for a web page and checks what the visitor may do, by the one access policy
 * (`src/access/access_policy.ts`) as the signed-in account or a signed-out visitor. A private
 * wiki the visitor cannot reach is `wiki_not_found`, signed in or out, exactly as for an id
 * that does not exist (the 404 page links to sign-in with `next`, for an owner who was signed
 * out). Signed out, changing a public wiki asks to sign in.
 */
export function loadWebSpace(
  deps: Pick<Deps, "db" | "config">,
  c: Context,
  wikiId: string,
  need: WebAccess,
  purpose?: string,
): Promise<WebSpace> {
  const account = c.get("account");
  const caller = account
    ? { kind: "session" as const, accountId: account.id }
    : { kind: "anonymous" as const };
  if (account) return authorize(deps, caller, wikiId, need, "web", purpose);
  // Signed out, one answer for "no such wiki" and "a private wiki, maybe yours": sign in. No
  // suggestions of other wikis' ids (a teammate with a private link needs the sign-in, not
  // "did you mean 'docs'?").
  return authorize(deps, caller, wikiId, need, "web", purpose).catch((error) => {
    if (!(error instanceof AppError && error.code === "wiki_not_found")) throw error;
    throw new AppError(
      "wiki_not_found",
      `Wiki "${wikiId}" was not found, or it is private: sign in to see it if it is yours`,
    );
  });
}

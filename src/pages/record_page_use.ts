import type { Db } from "../db/db.ts";
import { AppError } from "../errors.ts";
import { resolvePageRef } from "./read_page.ts";
import { insertPageUse } from "./store.ts";

/** Who used a page: the credential behind the call and the client's own name. */
export type UseBy = {
  accountId?: string | null;
  credentialKind?: string | null;
  credentialId?: string | null;
  clientName?: string | null;
};

/** A confirmed use of a page (MCP `confirm_use`). */
export type PageUseInput = {
  wikiId: string;
  page: string;
  revision?: number;
  query?: string;
  note?: string;
};

/**
 * Records that an assistant used a page, at the revision it read (default: the current one).
 * A revision the page never had is refused. Returns the page's use count after this one.
 */
export async function recordPageUse(db: Db, input: PageUseInput, by: UseBy) {
  const page = await resolvePageRef(db, input.wikiId, input.page);
  const revision = input.revision ?? page.revision;
  if (!Number.isInteger(revision) || revision < 1 || revision > page.revision) {
    throw new AppError(
      "bad_request",
      `Page "${page.path}" has revisions 1 to ${page.revision}, not ${input.revision}`,
    );
  }
  const uses = await insertPageUse(db, {
    wiki_id: input.wikiId,
    page_id: page.id,
    page_path: page.path,
    revision,
    account_id: by.accountId ?? null,
    credential_kind: by.credentialKind ?? null,
    credential_id: by.credentialId ?? null,
    client_name: by.clientName?.slice(0, 200) ?? null,
    query: input.query?.slice(0, 2000) ?? null,
    note: input.note?.slice(0, 2000) ?? null,
  });
  return { recorded: true, page: page.path, revision, uses };
}

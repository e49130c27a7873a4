import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { requireAccount } from "../sessions/sessions.ts";
import { webErrorHandler } from "../sessions/web_error_handler.tsx";
import { selectWiki } from "../wikis/store.ts";
import { AuditPage } from "./audit_page.tsx";
import { selectAuditEvents, selectSpaceRole } from "./store.ts";

/** Entries per page of the log. */
const PAGE_SIZE = 50;

/**
 * `GET /w/:id/-/audit`: a space's audit log for its owners and admins, newest first, paged
 * with `?before=<entry id>`. Signed out: sign in first. Not a member: 404, so the page does
 * not reveal that a private space exists. A plain member: 403.
 */
export function auditRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get("/w/:id/-/audit", async (c) => {
    const account = requireAccount(c);
    const wikiId = c.req.param("id");
    const role = /^[a-z0-9-]{1,64}$/.test(wikiId)
      ? await selectSpaceRole(deps.db, account.id, wikiId)
      : null;
    const wiki = role ? await selectWiki(deps.db, wikiId) : null;
    if (!role || !wiki) throw new AppError("wiki_not_found", `Space "${wikiId}" not found`);
    if (role === "member") {
      throw new AppError("forbidden", `Only owners and admins of "${wikiId}" see its audit log`);
    }
    const before = c.req.query("before");
    const beforeId = before && /^\d{1,15}$/.test(before) ? Number(before) : null;
    const rows = await selectAuditEvents(deps.db, wikiId, { beforeId, limit: PAGE_SIZE + 1 });
    const entries = rows.slice(0, PAGE_SIZE);
    const base = `/w/${wikiId}/-/audit`;
    return c.html(
      <AuditPage
        account={account}
        csrfToken={c.get("csrfToken")}
        wikiId={wikiId}
        title={wiki.title || wikiId}
        entries={entries}
        olderHref={rows.length > PAGE_SIZE ? `${base}?before=${entries.at(-1)!.id}` : null}
        newestHref={beforeId !== null ? base : null}
        retentionDays={deps.config.auditRetentionDays}
      />,
    );
  });

  app.onError(webErrorHandler(deps, { signInNext: true }));
  return app;
}

import { Hono } from "hono";
import { authorize } from "../access/access_policy.ts";
import type { Deps } from "../deps.ts";
import { requireAccount } from "../kit/web/require_account.ts";
import { webErrorHandler } from "../kit/web/web_error_handler.tsx";
import { AuditPage } from "./audit_page.tsx";
import { selectAuditEvents } from "./mod.ts";

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
    const { wiki } = await authorize(
      deps,
      { kind: "session", accountId: account.id },
      wikiId,
      "admin",
      "web",
      "see its audit log",
    );
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

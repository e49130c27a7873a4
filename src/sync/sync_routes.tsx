import { timeout } from "../http/request_timeout.ts";
import { Hono } from "hono";
import { manages } from "../access/role.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { webErrorHandler } from "../kit/web/web_error_handler.tsx";
import { openSpace } from "../kit/web/space_context.ts";
import { toolHref } from "../kit/web/space_urls.ts";
import {
  connectGitSource,
  connectSchema,
  disconnectGitSource,
  rotateWebhookSecret,
  syncStatusOf,
} from "./connect_source.ts";
import { processOwner, SYNC_NOW_NEED, syncNow } from "./sync_jobs.ts";
import { type SyncForm, SyncPage } from "./sync_page.tsx";
import { selectGitSource, selectRecentSyncJobs } from "./mod.ts";

/**
 * The web side of Git sync at `/w/<id>/-/sync` (owners and admins): connect or change the
 * repository, disconnect, a new webhook secret; and "Sync now" (`/-/sync/now`), which members
 * may press too.
 */
export function syncRoutes(deps: Deps): Hono {
  const app = new Hono();
  const owner = processOwner();

  app.get("/w/:id/-/sync", (c) => {
    const done = c.req.query("done");
    return renderSync(deps, c, { notice: done ? NOTICES[done] : undefined });
  });

  app.post("/w/:id/-/sync", (c) => saveConnection(deps, c));

  // The sync runs in the request: it gets an import's time, not a page view's.
  const syncTimeout = timeout({ ms: deps.config.timeouts.importMs, log: deps.log });
  app.post("/w/:id/-/sync/now", syncTimeout, async (c) => {
    const view = await openSpace(deps, c, SYNC_NOW_NEED);
    const wikiId = view.space.wiki.id;
    const { ran: job } = await syncNow(deps, owner, wikiId);
    const done = !job ? "queued" : job.state === "done" ? "synced" : "failed";
    const back = !manages(view.space.role) ? `/w/${encodeURIComponent(wikiId)}` : undefined;
    return c.redirect(back ?? toolHref(wikiId, "sync", { done }), 303);
  });

  app.post("/w/:id/-/sync/webhook-secret", async (c) => {
    const view = await openSpace(deps, c, "admin");
    const secret = await rotateWebhookSecret(deps, view.space.wiki.id);
    return renderSync(deps, c, {
      notice: "A new webhook secret replaces the old one.",
      webhookSecret: secret,
    });
  });

  app.post("/w/:id/-/sync/disconnect", async (c) => {
    const view = await openSpace(deps, c, "admin");
    await disconnectGitSource(deps, view.space.wiki.id);
    return c.redirect(toolHref(view.space.wiki.id, "sync", { done: "disconnected" }), 303);
  });

  app.onError(webErrorHandler(deps, { signInNext: true }));
  return app;
}

type SyncContext = Parameters<typeof openSpace>[1];

/** The sync page, with the stored connection's values unless the form's are given back. */
async function renderSync(
  deps: Deps,
  c: SyncContext,
  extra: { values?: SyncForm; error?: string; notice?: string; webhookSecret?: string | null },
  status = 200,
) {
  const view = await openSpace(deps, c, "admin");
  const row = await selectGitSource(deps.db, view.space.wiki.id);
  const values = extra.values ?? {
    url: row?.url ?? "",
    branch: row?.branch ?? "main",
    folder: row?.folder ?? "",
    interval: row?.interval_minutes ? String(row.interval_minutes) : "",
  };
  return c.html(
    <SyncPage
      {...view}
      status={row ? syncStatusOf(deps.config.baseUrl, row) : null}
      jobs={row ? await selectRecentSyncJobs(deps.db, row.wiki_id) : []}
      canStoreTokens={deps.config.sync.secretKey !== null}
      values={values}
      error={extra.error}
      notice={extra.notice}
      webhookSecret={extra.webhookSecret}
    />,
    status as 200,
  );
}

/** Connects the repository the form names, or changes the connection; the form back on error. */
async function saveConnection(deps: Deps, c: SyncContext) {
  const view = await openSpace(deps, c, "admin");
  const form = await c.req.parseBody();
  const text = (name: string) => typeof form[name] === "string" ? String(form[name]).trim() : "";
  const values: SyncForm = {
    url: text("url"),
    branch: text("branch") || "main",
    folder: text("folder"),
    interval: text("interval"),
  };
  const interval = values.interval === "" ? null : Number(values.interval);
  const parsed = connectSchema.safeParse({
    url: values.url,
    branch: values.branch,
    folder: values.folder,
    token: text("token") || undefined,
    interval_minutes: interval,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return renderSync(deps, c, { values, error: `${issue.path.join(".")}: ${issue.message}` }, 400);
  }
  try {
    const out = await connectGitSource(deps, view.space.wiki.id, parsed.data);
    return renderSync(deps, c, {
      notice: out.created
        ? "Connected. Press “Sync now” to take the repository's pages."
        : "Saved.",
      webhookSecret: out.webhookSecret,
    });
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    return renderSync(deps, c, { values, error: error.detail }, 400);
  }
}

const NOTICES: Record<string, string> = {
  synced: "Synced.",
  failed: "The sync failed: see the error below.",
  queued: "A sync of this space is already running.",
  disconnected: "Disconnected: the pages stay and can be edited here again.",
};

import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { json, problems, wikiIdParam } from "../kit/rest/schemas.ts";
import { auditedSpace } from "../audit/record_audit.ts";
import { authorize, type Need } from "../access/access_policy.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { timeout } from "../http/request_timeout.ts";
import { findWiki } from "../wikis/wikis.ts";
import {
  connectGitSource,
  connectSchema,
  disconnectGitSource,
  notConnected,
  rotateWebhookSecret,
  syncStatusOf,
} from "./connect_source.ts";
import type { SyncJobRow } from "./git_source.ts";
import { processOwner, SYNC_NOW_NEED, syncNow } from "./sync_jobs.ts";
import { verifyWebhook } from "./webhook_signature.ts";
import { enqueueSyncJob, selectGitSource, selectRecentSyncJobs } from "./mod.ts";

const statusSchema = z.object({
  url: z.string(),
  branch: z.string(),
  folder: z.string(),
  has_token: z.boolean(),
  interval_minutes: z.number().int().nullable(),
  next_sync_at: z.string().nullable(),
  last_commit: z.string().nullable(),
  last_synced_at: z.string().nullable(),
  last_error: z.string().nullable(),
  failures: z.number().int(),
  webhook_url: z.string(),
});

const jobSchema = z.object({
  id: z.number().int(),
  reason: z.string(),
  state: z.enum(["queued", "running", "done", "failed"]),
  attempts: z.number().int(),
  result: z.unknown(),
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

const security = [{ bearer: [] }];

/** The space `id` names, if the caller's token reaches it for `need`. */
async function requireSpace(deps: Deps, c: Context, id: string, need: Need): Promise<string> {
  const purpose = need === "admin" ? "change its sync" : undefined;
  const access = await authorize(deps, c.get("credential"), id, need, "rest", purpose);
  return auditedSpace(c, access.wiki.id);
}

/**
 * REST for Git sync: connect a space (`PUT /spaces/{id}/sync`, owners and admins), see its
 * freshness (`GET`), sync now (`POST`), disconnect (`DELETE`), a new webhook secret, and the
 * push webhook `POST /hooks/git/{id}`, which takes no token but the host's signature.
 */
export function registerSyncRoutes(app: OpenAPIHono, deps: Deps): void {
  connectionRoutes(app, deps);
  syncNowRoutes(app, deps);
  webhookRoute(app, deps);
}

/** `GET`, `PUT` and `DELETE /spaces/{id}/sync`: a space's Git connection and its freshness. */
function connectionRoutes(app: OpenAPIHono, deps: Deps): void {
  app.openapi(
    createRoute({
      method: "get",
      path: "/spaces/{id}/sync",
      operationId: "getSpaceSync",
      tags: ["Git sync"],
      summary: "The space's Git connection, freshness and latest sync jobs",
      security,
      request: { params: wikiIdParam },
      responses: {
        200: json(statusSchema.extend({ jobs: z.array(jobSchema) }), "The connection"),
        ...problems(401, 403, 404),
      },
    }),
    async (c) => {
      const wikiId = await requireSpace(deps, c, c.req.valid("param").id, "read");
      const row = await selectGitSource(deps.db, wikiId);
      if (!row) throw notConnected(wikiId);
      const jobs = await selectRecentSyncJobs(deps.db, wikiId);
      return c.json({ ...syncStatusOf(deps.config.baseUrl, row), jobs: jobs.map(jobOf) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "put",
      path: "/spaces/{id}/sync",
      operationId: "connectSpaceSync",
      tags: ["Git sync"],
      summary: "Connect the space to a Git repository, or change its connection",
      description: "The access token is stored encrypted and never returned. A new connection's " +
        "response carries `webhook_secret`, shown this once. Pages of a connected space change " +
        "only through syncs.",
      security,
      request: {
        params: wikiIdParam,
        body: { content: { "application/json": { schema: connectSchema } }, required: true },
      },
      responses: {
        200: json(statusSchema, "Changed"),
        201: json(statusSchema.extend({ webhook_secret: z.string() }), "Connected"),
        ...problems(400, 401, 403, 404),
      },
    }),
    async (c) => {
      const wikiId = await requireSpace(deps, c, c.req.valid("param").id, "admin");
      const out = await connectGitSource(deps, wikiId, c.req.valid("json"));
      return out.created
        ? c.json({ ...out.status, webhook_secret: out.webhookSecret! }, 201)
        : c.json(out.status, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/spaces/{id}/sync",
      operationId: "disconnectSpaceSync",
      tags: ["Git sync"],
      summary: "Disconnect the repository (pages stay, editable again)",
      security,
      request: { params: wikiIdParam },
      responses: { 204: { description: "Disconnected" }, ...problems(401, 403, 404) },
    }),
    async (c) => {
      const wikiId = await requireSpace(deps, c, c.req.valid("param").id, "admin");
      await disconnectGitSource(deps, wikiId);
      return c.body(null, 204);
    },
  );
}

/** A new webhook secret, and `POST /spaces/{id}/sync`: sync now. */
function syncNowRoutes(app: OpenAPIHono, deps: Deps): void {
  const owner = processOwner();
  app.openapi(
    createRoute({
      method: "post",
      path: "/spaces/{id}/sync/webhook-secret",
      operationId: "rotateSyncWebhookSecret",
      tags: ["Git sync"],
      summary: "Replace the webhook secret (shown this once)",
      security,
      request: { params: wikiIdParam },
      responses: {
        200: json(z.object({ webhook_secret: z.string() }), "The new secret"),
        ...problems(401, 403, 404),
      },
    }),
    async (c) => {
      const wikiId = await requireSpace(deps, c, c.req.valid("param").id, "admin");
      return c.json({ webhook_secret: await rotateWebhookSecret(deps, wikiId) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/spaces/{id}/sync",
      operationId: "syncSpaceNow",
      tags: ["Git sync"],
      summary: "Sync the space now",
      description: "Queues a sync and runs it in this request: 200 with the job as it ended. " +
        "When a sync of the space is already running, 202 with the job queued behind it. " +
        "Needs a role that writes the space (a viewer may not).",
      security,
      // The sync runs in the request: it gets an import's time, not a page read's.
      middleware: [timeout({ ms: deps.config.timeouts.importMs, log: deps.log })],
      request: { params: wikiIdParam },
      responses: {
        200: json(jobSchema, "The sync ran"),
        202: json(
          jobSchema,
          "A sync of the space is already running; this one is queued behind it",
        ),
        ...problems(401, 403, 404, 422),
      },
    }),
    async (c) => {
      const wikiId = await requireSpace(deps, c, c.req.valid("param").id, SYNC_NOW_NEED);
      const { queued, ran } = await syncNow(deps, owner, wikiId);
      return ran ? c.json(jobOf(ran), 200) : c.json(jobOf(queued), 202);
    },
  );
}

/** `POST /hooks/git/{id}`: the push webhook, checked by the host's signature, not a token. */
function webhookRoute(app: OpenAPIHono, deps: Deps): void {
  app.openapi(
    createRoute({
      method: "post",
      path: "/hooks/git/{id}",
      operationId: "receiveGitPushWebhook",
      tags: ["Git sync"],
      summary: "Push webhook of GitHub, GitLab or Gitea: queues a sync",
      description: "Signed with the space's webhook secret: GitHub `X-Hub-Signature-256`, " +
        "Gitea `X-Gitea-Signature` (HMAC-SHA256 of the body), GitLab `X-Gitlab-Token`. A push " +
        "to another branch is ignored.",
      request: { params: wikiIdParam },
      responses: {
        202: json(z.object({ queued: z.boolean(), job: z.number().int().nullable() }), "Taken"),
        ...problems(400, 401),
      },
    }),
    async (c) => {
      const id = c.req.valid("param").id;
      const row = await findWiki(deps.db, id) && await selectGitSource(deps.db, id);
      const body = new Uint8Array(await c.req.arrayBuffer());
      // An unknown space, a space without a repository and a wrong signature get one answer
      // (a signature checked against a secret nobody holds), so the hook tells no one which
      // private spaces exist and are connected (issue 26.12).
      const secret = row ? row.webhook_secret : crypto.randomUUID();
      const verdict = await verifyWebhook(c.req.raw.headers, body, secret);
      if (!verdict.ok || !row) {
        throw new AppError(
          "unauthorized",
          verdict.ok ? "The signature does not match" : verdict.reason,
        );
      }
      const ref = pushedRef(body);
      if (ref !== null && ref !== `refs/heads/${row.branch}`) {
        return c.json({ queued: false, job: null }, 202);
      }
      const job = await enqueueSyncJob(deps.db, id, "webhook");
      deps.log.info("sync queued by webhook", { wiki: id, host: verdict.host, job: job.id });
      return c.json({ queued: true, job: Number(job.id) }, 202);
    },
  );
}

function jobOf(job: SyncJobRow) {
  return {
    id: Number(job.id),
    reason: job.reason,
    state: job.state,
    attempts: job.attempts,
    result: typeof job.result === "string" ? JSON.parse(job.result) : job.result,
    error: job.error,
    created_at: new Date(job.created_at).toISOString(),
    finished_at: job.finished_at ? new Date(job.finished_at).toISOString() : null,
  };
}

/** The `ref` of a push event's JSON body (all three hosts name it so), or null. */
function pushedRef(body: Uint8Array): string | null {
  try {
    const ref = JSON.parse(new TextDecoder().decode(body))?.ref;
    return typeof ref === "string" ? ref : null;
  } catch {
    return null;
  }
}

import { z } from "zod";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { encodeBase64url } from "../lib/base64url.ts";
import { checkRepositoryUrl, type ResolveDns } from "./git_http.ts";
import { sealToken } from "./secret_box.ts";
import {
  deleteGitSource,
  type GitSourceRow,
  selectGitSource,
  updateWebhookSecret,
  upsertGitSource,
} from "./store.ts";

/** A connection as a form or JSON body gives it. */
export const connectSchema = z.object({
  url: z.string().min(1).max(2000),
  branch: z.string().max(200).regex(
    /^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]+$/,
    "a branch name of letters, digits and . _ / -",
  ).default("main"),
  folder: z.string().max(500).regex(/^(?!.*\.\.)[^\0\\]*$/, "a folder path without ..")
    .default(""),
  /** A new access token; "" removes the stored one; absent keeps it (same URL only). */
  token: z.string().max(2000).optional(),
  /** Minutes between scheduled syncs; null or absent: no schedule. */
  interval_minutes: z.number().int().min(1).max(10080).nullable().optional(),
});

/** The connection input, validated. */
export type ConnectInput = z.infer<typeof connectSchema>;

/** What a space shows of its connection: never the token or the webhook secret. */
export type SyncStatus = {
  url: string;
  branch: string;
  folder: string;
  has_token: boolean;
  interval_minutes: number | null;
  next_sync_at: string | null;
  last_commit: string | null;
  last_synced_at: string | null;
  last_error: string | null;
  failures: number;
  webhook_url: string;
};

/** The public view of a connection. */
export function syncStatusOf(baseUrl: string, row: GitSourceRow): SyncStatus {
  return {
    url: row.url,
    branch: row.branch,
    folder: row.folder,
    has_token: row.token_sealed !== null,
    interval_minutes: row.interval_minutes,
    next_sync_at: row.next_sync_at?.toISOString() ?? null,
    last_commit: row.last_commit,
    last_synced_at: row.last_synced_at?.toISOString() ?? null,
    last_error: row.last_error,
    failures: row.failures,
    webhook_url: webhookUrl(baseUrl, row.wiki_id),
  };
}

/** Where a repository host sends push events for the space. */
export function webhookUrl(baseUrl: string, wikiId: string): string {
  return `${baseUrl}/api/v1/hooks/git/${encodeURIComponent(wikiId)}`;
}

/**
 * Connects a space to a repository, or changes its connection. The URL passes the SSRF guard
 * first. A token is sealed before it is stored and never returned; one kept from before is
 * dropped when the URL changes, so it is never sent to another server. A new connection gets
 * a webhook secret, returned this once.
 */
export async function connectGitSource(
  deps: Pick<Deps, "db" | "config">,
  wikiId: string,
  input: ConnectInput,
  resolve?: ResolveDns,
): Promise<{ status: SyncStatus; created: boolean; webhookSecret: string | null }> {
  const url = (await checkRepositoryUrl(input.url.trim(), deps.config.sync.allowHosts, resolve))
    .href.replace(/\/+$/, "");
  const existing = await selectGitSource(deps.db, wikiId);
  const token = input.token?.trim();
  const tokenSealed = token ? await sealToken(deps.config.sync.secretKey, wikiId, token) : null;
  const keepToken = token === undefined && existing?.url === url;
  const webhookSecret = existing ? null : newWebhookSecret();
  const row = await upsertGitSource(deps.db, wikiId, {
    url,
    branch: input.branch,
    folder: input.folder.trim().replace(/^\/+|\/+$/g, ""),
    tokenSealed,
    keepToken,
    intervalMinutes: input.interval_minutes ?? null,
    webhookSecret: webhookSecret ?? existing!.webhook_secret,
  });
  return { status: syncStatusOf(deps.config.baseUrl, row), created: !existing, webhookSecret };
}

/** A fresh webhook secret for the space, returned this once. */
export async function rotateWebhookSecret(deps: Pick<Deps, "db">, wikiId: string) {
  const secret = newWebhookSecret();
  if (!await updateWebhookSecret(deps.db, wikiId, secret)) throw notConnected(wikiId);
  return secret;
}

/** Disconnects the space; its pages stay and can be edited here again. */
export async function disconnectGitSource(deps: Pick<Deps, "db">, wikiId: string) {
  if (!await deleteGitSource(deps.db, wikiId)) throw notConnected(wikiId);
}

/** The `not_found` error for a space without a repository. */
export function notConnected(wikiId: string): AppError {
  return new AppError("not_found", `Space "${wikiId}" is not connected to a Git repository`);
}

function newWebhookSecret(): string {
  return `whsec_${encodeBase64url(crypto.getRandomValues(new Uint8Array(24)))}`;
}

import type { Context } from "hono";
import type { Deps } from "../deps.ts";
import { type AuditEvent, deleteOldAuditEvents, insertAuditEvent } from "./store.ts";

/** One in a thousand writes also prunes the entries past their retention. */
const PRUNE_EVERY = 1000;

/**
 * Appends an entry to the audit log: one INSERT. An audit failure never fails the call it
 * records (the service stays up when the log cannot be written); it is logged instead.
 */
export async function recordAudit(
  deps: Pick<Deps, "db" | "log" | "config">,
  event: AuditEvent,
): Promise<void> {
  try {
    // A hostile page name may hold NUL, which PostgreSQL text cannot: keep the entry anyway.
    await insertAuditEvent(deps.db, {
      ...event,
      target: event.target?.replaceAll("\0", "") ?? null,
    });
    if (Math.random() < 1 / PRUNE_EVERY) {
      await deleteOldAuditEvents(deps.db, deps.config.auditRetentionDays);
    }
  } catch (error) {
    deps.log.warn("audit entry not recorded", {
      request_id: event.requestId,
      action: event.action,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

declare module "hono" {
  interface ContextVariableMap {
    /** The space a REST request's credential was checked against (`auditedSpace`). */
    auditedSpace: string;
  }
}

/**
 * Notes on the request that its credential reaches `wikiId` (called where the credential is
 * checked against the space) and returns it; `auditSpaceRequests` records it with the request.
 * Only a space the credential reaches is ever recorded, so an owner's log never shows
 * strangers' attempts.
 */
export function auditedSpace(c: Context, wikiId: string): string {
  c.set("auditedSpace", wikiId);
  return wikiId;
}

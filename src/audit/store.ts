import type { Db } from "../db/db.ts";

/** One audit-log entry as written. */
export type AuditEvent = {
  wikiId: string | null;
  accountId: string;
  credentialKind: "account_token" | "space_token" | "oauth";
  credentialId: string;
  clientName: string | null;
  channel: "mcp" | "rest";
  action: string;
  target: string | null;
  outcome: string;
  requestId: string | null;
};

/** An entry as the audit page shows it: who by email, which token by name. */
export type AuditRow = {
  id: number;
  at: Date;
  channel: "mcp" | "rest";
  action: string;
  target: string | null;
  outcome: string;
  credential_kind: AuditEvent["credentialKind"];
  client_name: string | null;
  request_id: string | null;
  account_email: string | null;
  account_name: string | null;
  token_name: string | null;
};

/**
 * Appends one entry; not when its space is gone meanwhile (a call still in flight while its
 * space was deleted), so that a later space of the same id inherits no entry of the old one.
 */
export async function insertAuditEvent(db: Db, e: AuditEvent): Promise<void> {
  await db`
    INSERT INTO audit_events (wiki_id, account_id, credential_kind, credential_id, client_name,
                              channel, action, target, outcome, request_id)
    SELECT ${e.wikiId}, ${e.accountId}, ${e.credentialKind}, ${e.credentialId}, ${e.clientName},
           ${e.channel}, ${e.action}, ${e.target}, ${e.outcome}, ${e.requestId}
    WHERE ${e.wikiId}::text IS NULL OR EXISTS (SELECT 1 FROM wikis WHERE id = ${e.wikiId})`;
}

/** Deletes the entries older than `days` days. */
export async function deleteOldAuditEvents(db: Db, days: number): Promise<void> {
  await db`DELETE FROM audit_events WHERE at < now() - make_interval(days => ${days})`;
}

/** A space's entries, newest first, older than `beforeId` when given (keyset paging). */
export function selectAuditEvents(
  db: Db,
  wikiId: string,
  options: { beforeId: number | null; limit: number },
): Promise<AuditRow[]> {
  return db<AuditRow>`
    SELECT e.id, e.at, e.channel, e.action, e.target, e.outcome, e.credential_kind,
           e.client_name, e.request_id, a.email AS account_email, a.name AS account_name,
           t.name AS token_name
    FROM audit_events e
    LEFT JOIN accounts a ON a.id = e.account_id
    LEFT JOIN tokens t ON e.credential_kind <> 'oauth' AND t.id = e.credential_id
    WHERE e.wiki_id = ${wikiId} AND (${options.beforeId}::bigint IS NULL OR e.id < ${options.beforeId})
    ORDER BY e.id DESC
    LIMIT ${options.limit}`;
}

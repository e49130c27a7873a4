import type { Db } from "../db/db.ts";
import type { WikiRow } from "../db/wiki_row.ts";

/**
 * Early admission on `/mcp/w/<id>/`: a tool call that only reads, on a wiki this process found
 * public moments ago, is served while the wiki is looked up again, instead of after. The answer
 * still waits for that lookup, made for this request on the primary: a wiki made private (or
 * deleted) meanwhile gets the same 404 as before, and the tool's answer is dropped. What the
 * early start may do for a wiki that has just been made private is read it (the search's
 * statements, its in-memory index) and count the search on its usage page; it never writes
 * to it, answers from it, or starts on a wiki this process has not found public. A `search`
 * started early, without read replicas, is admitted by the wiki's visibility as the search's own
 * statistics statement reads it on the primary, during the request (`visibilitySeen` in
 * `Deps`); only when that statement did not read it public is the lookup sent (and its 404
 * given). With replicas the statistics may lag, so the lookup is sent as for any other tool.
 */

/**
 * How long a wiki found public is started on early. Every request is still checked against the
 * wiki's row as it is now: by the lookup, or by a search's own statement (see above).
 */
export const EARLY_ADMISSION_MS = 60_000;

/** Most wikis remembered per database: past it, the oldest is forgotten. */
const MAX_REMEMBERED = 10_000;

/** The tools a call of which may start early: they only read, and answer in one step. */
const EARLY_TOOLS = new Set(["search", "fetch", "get_page", "list_pages", "neighbors"]);

/** Per database (tests run several in one process): wiki id → its row and when it was found. */
const seen = new WeakMap<Db, Map<string, { wiki: WikiRow; at: number }>>();

/** The wiki `id`, if this process found it public within `EARLY_ADMISSION_MS`. */
export function recentlyPublic(db: Db, id: string, now = Date.now()): WikiRow | undefined {
  const entry = seen.get(db)?.get(id);
  if (!entry) return undefined;
  if (now - entry.at > EARLY_ADMISSION_MS || entry.wiki.visibility !== "public") {
    seen.get(db)?.delete(id);
    return undefined;
  }
  return entry.wiki;
}

/** Records what the request's own lookup found: a public wiki, or (null) none to start on. */
export function foundWiki(db: Db, id: string, wiki: WikiRow | null): void {
  let byId = seen.get(db);
  if (!byId) seen.set(db, byId = new Map());
  byId.delete(id);
  if (!wiki || wiki.visibility !== "public") return;
  byId.set(id, { wiki, at: Date.now() });
  if (byId.size > MAX_REMEMBERED) byId.delete(byId.keys().next().value!);
}

/** Whether a JSON-RPC body is one `tools/call` of a tool that may start early (`EARLY_TOOLS`). */
export function mayStartEarly(parsed: unknown): boolean {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return false;
  const message = parsed as { method?: unknown; params?: { name?: unknown; task?: unknown } };
  return message.method === "tools/call" && EARLY_TOOLS.has(String(message.params?.name)) &&
    message.params?.task === undefined;
}

import type { Deps } from "../deps.ts";
import { constantTimeTextEqual } from "../lib/secrets.ts";
import { sha256Hex } from "../lib/sha256.ts";
import type { DocumentFetcher } from "../http/pinned_fetch.ts";
import { fetchClientDocument, isDocumentClientId } from "./client_metadata_document.ts";
import { type OAuthFailure, oauthFailure } from "./oauth_error.ts";
import { type ClientRow, selectClient, upsertDocumentClient } from "./store.ts";

/**
 * The client a `client_id` names: a registered (DCR) client from the store, or, for a
 * URL-shaped id, the client its metadata document describes: from the cache while fresh,
 * else fetched again (the stale copy is served if the fetch fails, so an outage of the
 * client's host does not sign everyone out).
 */
export async function findClient(
  deps: Pick<Deps, "db" | "log">,
  fetcher: DocumentFetcher,
  clientId: string,
): Promise<{ ok: true; client: ClientRow } | { ok: false; reason: string }> {
  if (!clientId || clientId.length > 500) return { ok: false, reason: "Unknown client" };
  const stored = await selectClient(deps.db, clientId);
  if (!isDocumentClientId(clientId)) {
    return stored?.kind === "dcr"
      ? { ok: true, client: stored }
      : { ok: false, reason: `Unknown client "${clientId}"` };
  }
  if (stored && stored.kind !== "cimd") return { ok: false, reason: "Unknown client" };
  if (stored && stored.cimd_expires_at!.getTime() > Date.now()) return { ok: true, client: stored };
  const fetched = await fetchClientDocument(fetcher, clientId);
  if (!fetched.ok) {
    deps.log.info("client metadata document refused", {
      client_id: clientId,
      reason: fetched.reason,
    });
    return stored ? { ok: true, client: stored } : fetched;
  }
  const { document } = fetched;
  const client = await upsertDocumentClient(deps.db, {
    id: clientId,
    name: document.name,
    redirect_uris: document.redirectUris,
    metadata: document.metadata,
    expires_at: new Date(Date.now() + document.ttlSeconds * 1000),
  });
  return { ok: true, client };
}

/**
 * Authenticates the client of a token or revocation request (RFC 6749 §2.3): by
 * `client_secret_basic` (an `Authorization: Basic` header), by `client_secret_post` (the
 * form's `client_secret`), or, for public clients, by `client_id` alone. A secret client
 * may use either secret method; a public client that sends a secret is refused.
 */
export async function authenticateClient(
  deps: Pick<Deps, "db" | "log">,
  fetcher: DocumentFetcher,
  authorization: string | undefined,
  form: URLSearchParams,
): Promise<{ ok: true; client: ClientRow } | OAuthFailure> {
  let id = form.get("client_id") ?? undefined;
  let secret = form.get("client_secret") ?? undefined;
  if (authorization) {
    const basic = parseBasic(authorization);
    if (!basic) {
      return oauthFailure("invalid_client", "The Authorization header is not Basic credentials");
    }
    if (secret !== undefined || (id !== undefined && id !== basic.id)) {
      return oauthFailure("invalid_request", "Use one client authentication method only");
    }
    id = basic.id;
    secret = basic.secret;
  }
  if (!id) return oauthFailure("invalid_client", "The client_id is missing");
  const found = await findClient(deps, fetcher, id);
  if (!found.ok) return oauthFailure("invalid_client", found.reason);
  const { client } = found;
  if (client.auth_method === "none") {
    return secret
      ? oauthFailure("invalid_client", "This client is public: it has no secret to send")
      : found;
  }
  if (!secret) {
    return oauthFailure("invalid_client", "This client must authenticate with its secret");
  }
  const valid = constantTimeTextEqual(await sha256Hex(secret), client.secret_hash!);
  return valid ? found : oauthFailure("invalid_client", "The client secret is not right");
}

/** `Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1), or null. */
function parseBasic(header: string): { id: string; secret: string } | null {
  const match = /^Basic +([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!match) return null;
  try {
    const text = atob(match[1]!);
    const colon = text.indexOf(":");
    if (colon < 0) return null;
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
    return { id: decode(text.slice(0, colon)), secret: decode(text.slice(colon + 1)) };
  } catch {
    return null;
  }
}

import { redirectUriProblem } from "./redirect_uris.ts";
import { isPrivateAddress } from "../http/private_address.ts";
import type { DocumentFetcher } from "../http/pinned_fetch.ts";

const MAX_BYTES = 10 * 1024;
const TIMEOUT_MS = 5_000;
const MIN_TTL_S = 5 * 60;
const MAX_TTL_S = 24 * 60 * 60;

/** A metadata document as accepted: what the client table keeps of it. */
export type ClientDocument = {
  name: string;
  redirectUris: string[];
  metadata: Record<string, unknown>;
  ttlSeconds: number;
};

/** True when a client id is URL-shaped, i.e. names a Client ID Metadata Document. */
export function isDocumentClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/**
 * Fetches and validates the Client ID Metadata Document at a URL-shaped client id
 * (draft-ietf-oauth-client-id-metadata-document §4, §6). SSRF guards: https only, no
 * userinfo, fragment or bare origin; the host must not be, or resolve to, a loopback, private
 * or link-local address; no redirects; 5 s; at most 10 KB; JSON. The document's `client_id`
 * must be the URL exactly, and it may not claim a client secret.
 */
export async function fetchClientDocument(
  fetcher: DocumentFetcher,
  clientId: string,
): Promise<{ ok: true; document: ClientDocument } | { ok: false; reason: string }> {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return { ok: false, reason: "The client id is not a URL" };
  }
  if (url.protocol !== "https:") return { ok: false, reason: "A client id URL must use https" };
  if (url.username || url.password || clientId.includes("#") || url.pathname === "/") {
    return { ok: false, reason: "A client id URL needs a path and no userinfo or fragment" };
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = /^[\d.]+$/.test(host) || host.includes(":");
  if (/(^|\.)(localhost|local|internal)$/i.test(host)) {
    return { ok: false, reason: `The client id host "${host}" is not public` };
  }
  // Whatever the network did (no address, a private one, a refused connection, a status
  // other than 200) the answer is the same: repeating it would let anyone probe what this
  // server's resolver and network reach.
  const unreachable = {
    ok: false as const,
    reason: "The client metadata document could not be fetched",
  };
  const addresses = literal ? [host] : await fetcher.resolveDns(host).catch(() => []);
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) return unreachable;
  let response: Response;
  try {
    // Connect to the address just checked; the host is not resolved again.
    response = await fetcher.fetch(clientId, {
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { Accept: "application/json" },
    }, addresses[0]!);
  } catch {
    return unreachable;
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    return unreachable;
  }
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(response.headers.get("content-type") ?? "")) {
    await response.body?.cancel();
    return { ok: false, reason: "The client metadata document is not JSON" };
  }
  const text = await readCapped(response, MAX_BYTES);
  if (text === null) return { ok: false, reason: "The client metadata document is too large" };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { ok: false, reason: "The client metadata document is not valid JSON" };
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    return { ok: false, reason: "The client metadata document is not a JSON object" };
  }
  const d = doc as Record<string, unknown>;
  if (d.client_id !== clientId) {
    return { ok: false, reason: "The document's client_id is not its own URL" };
  }
  const method = d.token_endpoint_auth_method ?? "none";
  if (method !== "none") {
    return { ok: false, reason: `A metadata document client may not use "${String(method)}"` };
  }
  const uris = d.redirect_uris;
  if (
    !Array.isArray(uris) || uris.length === 0 || uris.length > 20 ||
    !uris.every((u) => typeof u === "string" && redirectUriProblem(u) === null)
  ) {
    return { ok: false, reason: "The document's redirect_uris are missing or not acceptable" };
  }
  const name = typeof d.client_name === "string" && d.client_name.trim()
    ? d.client_name.trim().slice(0, 100)
    : url.hostname;
  return {
    ok: true,
    document: {
      name,
      redirectUris: uris as string[],
      metadata: {
        client_name: name,
        client_uri: typeof d.client_uri === "string" ? d.client_uri : undefined,
      },
      ttlSeconds: ttlOf(response.headers.get("cache-control")),
    },
  };
}

/** The cache lifetime from `Cache-Control: max-age`, clamped to 5 min–24 h (1 h if absent). */
function ttlOf(cacheControl: string | null): number {
  const maxAge = /max-age=(\d+)/i.exec(cacheControl ?? "");
  const seconds = maxAge ? Number(maxAge[1]) : 3600;
  return Math.min(MAX_TTL_S, Math.max(MIN_TTL_S, seconds));
}

/** The body as text, or null once it passes `limit` bytes (read no further). */
async function readCapped(response: Response, limit: number): Promise<string | null> {
  if (!response.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}

import type { Deps } from "../deps.ts";
import { randomSecret } from "../lib/secrets.ts";
import { sha256Hex } from "../lib/sha256.ts";
import type { DocumentFetcher } from "../http/pinned_fetch.ts";
import { findClient } from "./clients.ts";
import type { OAuthErrorCode } from "./oauth_error.ts";
import { redirectUriMatches } from "./redirect_uris.ts";
import { canonicalResource } from "./resource.ts";
import { grantedScope } from "./scopes.ts";
import { type ClientRow, deleteStaleCodes, insertCode } from "./store.ts";

/** An authorization code lives a minute: long enough for a redirect and one token request. */
const CODE_TTL_MS = 60_000;

/** A validated authorization request, ready for consent. */
export type AuthorizationRequest = {
  client: ClientRow;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  resource: string;
  scope: string;
};

/**
 * The outcome of checking an authorization request (RFC 6749 §4.1.2.1): a bad client or
 * redirect URI is shown on a page and never redirected to (an open redirector otherwise);
 * anything wrong after that goes back to the client as an error redirect.
 */
export type AuthorizationCheck =
  | { kind: "ok"; request: AuthorizationRequest }
  | { kind: "page_error"; message: string }
  | {
    kind: "redirect_error";
    redirectUri: string;
    state: string | undefined;
    error: OAuthErrorCode;
    description: string;
  };

/**
 * The authorization request's parameters: each may appear once (a repeated one makes the
 * request ambiguous), and the consent form carries them all back to `POST /authorize`.
 */
export const AUTHORIZATION_PARAMS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "state",
  "code_challenge",
  "code_challenge_method",
  "resource",
  "scope",
] as const;
/** Checks the parameters of `GET /authorize` (or of the consent form that repeats them). */
export async function checkAuthorizationRequest(
  deps: Pick<Deps, "db" | "log" | "config">,
  fetcher: DocumentFetcher,
  params: URLSearchParams,
): Promise<AuthorizationCheck> {
  const clientId = params.get("client_id") ?? "";
  if (params.getAll("client_id").length > 1 || params.getAll("redirect_uri").length > 1) {
    return { kind: "page_error", message: "The request repeats client_id or redirect_uri" };
  }
  const found = await findClient(deps, fetcher, clientId);
  if (!found.ok) {
    return { kind: "page_error", message: `This app is not known here: ${found.reason}` };
  }
  const client = found.client;
  const redirectUri = params.get("redirect_uri");
  if (!redirectUri) {
    return { kind: "page_error", message: "The request has no redirect_uri" };
  }
  if (!redirectUriMatches(client.redirect_uris, redirectUri)) {
    return {
      kind: "page_error",
      message: `The redirect URI "${redirectUri}" is not registered for this app`,
    };
  }
  const state = params.get("state") ?? undefined;
  const fail = (error: OAuthErrorCode, description: string): AuthorizationCheck => ({
    kind: "redirect_error",
    redirectUri,
    state,
    error,
    description,
  });
  const repeated = AUTHORIZATION_PARAMS.find((p) => params.getAll(p).length > 1);
  if (repeated) return fail("invalid_request", `The parameter "${repeated}" is repeated`);
  const responseType = params.get("response_type");
  if (responseType !== "code") {
    return responseType
      ? fail("unsupported_response_type", `Only response_type=code is supported`)
      : fail("invalid_request", "response_type is missing");
  }
  // PKCE with S256 on every request (OAuth 2.1 §4.1.1; RFC 9700 §2.1.1): plain or a missing
  // method would allow a downgrade.
  const codeChallenge = params.get("code_challenge");
  if (!codeChallenge) return fail("invalid_request", "code_challenge is required (PKCE)");
  if (params.get("code_challenge_method") !== "S256") {
    return fail("invalid_request", "code_challenge_method must be S256");
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) {
    return fail("invalid_request", "code_challenge must be 43 base64url characters (S256)");
  }
  const resource = canonicalResource(deps.config.baseUrl, params.get("resource") ?? undefined);
  if (!resource) {
    return fail("invalid_target", "This server issues tokens for its /mcp endpoint only");
  }
  const scope = grantedScope(params.get("scope") ?? undefined);
  if (typeof scope !== "string") return fail("invalid_scope", `Unknown scope "${scope.unknown}"`);
  return {
    kind: "ok",
    request: { client, redirectUri, state, codeChallenge, resource, scope },
  };
}

/** Issues a single-use code for an approved request; only its hash is stored. */
export async function issueCode(
  deps: Pick<Deps, "db">,
  request: AuthorizationRequest,
  accountId: string,
  spaceIds: string[],
): Promise<string> {
  const code = randomSecret();
  await deleteStaleCodes(deps.db);
  await insertCode(deps.db, {
    code_hash: await sha256Hex(code),
    client_id: request.client.id,
    account_id: accountId,
    redirect_uri: request.redirectUri,
    code_challenge: request.codeChallenge,
    resource: request.resource,
    scope: request.scope,
    space_ids: spaceIds,
    expires_at: new Date(Date.now() + CODE_TTL_MS),
  });
  return code;
}

/**
 * The redirect back to the client: its redirect URI with the response parameters added,
 * `state` unchanged and `iss` (RFC 9207, the metadata's issuer exactly) always.
 */
export function authorizationRedirect(
  redirectUri: string,
  issuer: string,
  state: string | undefined,
  fields: Record<string, string>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(fields)) url.searchParams.append(name, value);
  if (state !== undefined) url.searchParams.append("state", state);
  url.searchParams.append("iss", issuer);
  return url.toString();
}

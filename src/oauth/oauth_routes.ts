import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import type { Deps } from "../deps.ts";
import { type DocumentFetcher, networkFetcher } from "../http/pinned_fetch.ts";
import { authenticateClient } from "./clients.ts";
import { authorizationServerMetadata, protectedResourceMetadata } from "./metadata.ts";
import { NO_STORE, oauthErrorResponse, type OAuthFailure, oauthFailure } from "./oauth_error.ts";
import { registerClient } from "./register_client.ts";
import { revokeGrantOfToken } from "./grants.ts";
import { exchangeCode, refreshTokens } from "./token_grants.ts";
import { rateLimit } from "../limits/rate_limit.ts";

/** What the authorization server may be given besides its dependencies (tests pass fakes). */
export type OAuthOptions = { fetcher?: DocumentFetcher };

/** Paths of the discovery documents; the private MCP endpoint's PRM answers with and without `/mcp`. */
const PRM_PATHS = [
  "/.well-known/oauth-protected-resource",
  "/.well-known/oauth-protected-resource/mcp",
  "/.well-known/oauth-protected-resource/mcp/",
];
const AS_METADATA_PATH = "/.well-known/oauth-authorization-server";
const API_PATHS = ["/token", "/register", "/revoke"];

/**
 * The service's own OAuth 2.1 authorization server for `/mcp`: discovery (RFC 8414, RFC
 * 9728), registration (RFC 7591) and metadata-document clients, `/authorize` with consent,
 * `/token` (code with PKCE, refresh with rotation), `/revoke` (RFC 7009), and the account's
 * connected apps. Machine endpoints answer in OAuth's own JSON error shape and allow any
 * origin (no cookie is read there); the browser pages are behind session and CSRF checks.
 */
export function oauthRoutes(deps: Deps, options: OAuthOptions = {}): Hono {
  const fetcher = options.fetcher ?? networkFetcher;
  const app = new Hono();
  // Registered per path: a wildcard would also run on other features' routes.
  for (const path of [...PRM_PATHS, AS_METADATA_PATH, ...API_PATHS]) {
    app.use(
      path,
      cors({ origin: "*", allowHeaders: ["Authorization", "Content-Type"], maxAge: 86400 }),
    );
  }
  const metadataHeaders = { "Cache-Control": "public, max-age=300" };
  for (const path of PRM_PATHS) {
    app.get(path, (c) => c.json(protectedResourceMetadata(deps.config), 200, metadataHeaders));
  }
  app.get(
    AS_METADATA_PATH,
    (c) => c.json(authorizationServerMetadata(deps.config), 200, metadataHeaders),
  );

  app.post(
    "/register",
    rateLimit(deps, "oauth"),
    bodyLimit({ maxSize: 16 * 1024, onError: tooLarge }),
    (c) => registerClientRequest(deps, c),
  );

  app.post(
    "/token",
    rateLimit(deps, "oauth"),
    bodyLimit({ maxSize: 16 * 1024, onError: tooLarge }),
    (c) => tokenRequest(deps, fetcher, c),
  );

  // RFC 7009: an unknown or foreign token still gets 200, so the answer reveals nothing.
  // Revoking either token of a family revokes the family (§2.1 allows it for access tokens).
  app.post("/revoke", bodyLimit({ maxSize: 16 * 1024, onError: tooLarge }), async (c) => {
    const form = await readForm(c);
    if (!form.ok) return oauthErrorResponse(c, form);
    const token = form.params.get("token");
    if (!token) return oauthErrorResponse(c, oauthFailure("invalid_request", "token is missing"));
    const auth = await authenticateClient(
      deps,
      fetcher,
      c.req.header("authorization"),
      form.params,
    );
    if (!auth.ok) return oauthErrorResponse(c, auth);
    await revokeGrantOfToken(deps.db, token, auth.client.id);
    return c.body(null, 200, NO_STORE);
  });

  return app;
}

/**
 * The form of a token or revocation request: `application/x-www-form-urlencoded` only
 * (RFC 6749 §3.2), and no parameter twice (§3.1), which would make it ambiguous.
 */
async function readForm(
  c: Context,
): Promise<{ ok: true; params: URLSearchParams } | OAuthFailure> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header("content-type") ?? "")) {
    return oauthFailure("invalid_request", "Send the request as application/x-www-form-urlencoded");
  }
  const params = new URLSearchParams(await c.req.text());
  const names = [...params.keys()];
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated) return oauthFailure("invalid_request", `The parameter "${repeated}" is repeated`);
  return { ok: true, params };
}

function tooLarge(c: Context): Response {
  return oauthErrorResponse(c, oauthFailure("invalid_request", "The request body is too large"));
}

/** RFC 7591 registration: the client's metadata as JSON, answered with its registration. */
async function registerClientRequest(deps: Deps, c: Context) {
  if (!/^application\/json\b/i.test(c.req.header("content-type") ?? "")) {
    return oauthErrorResponse(
      c,
      oauthFailure("invalid_client_metadata", "Send the metadata as application/json"),
    );
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return oauthErrorResponse(
      c,
      oauthFailure("invalid_client_metadata", "Malformed JSON body"),
    );
  }
  const result = await registerClient(deps.db, body);
  if (!result.ok) return oauthErrorResponse(c, result);
  deps.log.info("oauth client registered", { client_id: result.registration.client_id });
  return c.json(result.registration, 201, NO_STORE);
}

/** The token endpoint: an authorization code (with PKCE) or a refresh token, for a client. */
async function tokenRequest(deps: Deps, fetcher: DocumentFetcher, c: Context) {
  const form = await readForm(c);
  if (!form.ok) return oauthErrorResponse(c, form);
  const grantType = form.params.get("grant_type");
  if (grantType !== "authorization_code" && grantType !== "refresh_token") {
    return oauthErrorResponse(
      c,
      grantType
        ? oauthFailure("unsupported_grant_type", `grant_type "${grantType}" is not supported`)
        : oauthFailure("invalid_request", "grant_type is missing"),
    );
  }
  const auth = await authenticateClient(
    deps,
    fetcher,
    c.req.header("authorization"),
    form.params,
  );
  if (!auth.ok) return oauthErrorResponse(c, auth);
  const result = grantType === "authorization_code"
    ? await exchangeCode(deps.db, deps.config.baseUrl, auth.client, form.params)
    : await refreshTokens(deps.db, deps.config.baseUrl, auth.client, form.params);
  if (!result.ok) {
    deps.log.info("oauth token refused", { client_id: auth.client.id, error: result.error });
    return oauthErrorResponse(c, result);
  }
  return c.json(result.tokens, 200, NO_STORE);
}

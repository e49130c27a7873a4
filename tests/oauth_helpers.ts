import type { Hono } from "hono";
import { createApp } from "../src/app.ts";
import type { Db } from "../src/db/db.ts";
import { encodeBase64url } from "../src/lib/base64url.ts";
import type { DocumentFetcher } from "../src/http/pinned_fetch.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { type Browser, browser } from "./browser.ts";
import { testDeps } from "./helpers.ts";

/** The origin the OAuth tests run under (https, as real clients require of an issuer). */
export const BASE = "https://wiki.test";
export const PASSWORD = "correct horse battery staple";

/** A fetcher that fails the test if the server tries to reach the network. */
export const noNetwork: DocumentFetcher = {
  fetch: () => Promise.reject(new Error("no network in tests")),
  resolveDns: () => Promise.reject(new Error("no DNS in tests")),
};

/** The whole app, its OAuth server fetching client metadata documents through `fetcher`. */
export function oauthApp(db: Db, fetcher: DocumentFetcher = noNetwork) {
  const deps = testDeps(db, { BASE_URL: BASE });
  const app = createApp(deps, { oauth: { fetcher } });
  return { app, deps };
}

export { type Browser, browser } from "./browser.ts";

/** Signs up `email` in a new browser and gives the account a space or two. */
export async function signedIn(
  app: Hono,
  db: Db,
  email = "ana@example.com",
  spaces = ["ana-notes"],
) {
  const b = browser(app);
  const res = await b.post("/signup", {
    _csrf: await b.token("/signup"),
    email,
    name: "Ana",
    password: PASSWORD,
  });
  if (res.status !== 303) throw new Error(`sign-up failed: ${res.status}`);
  const [account] = await db<{ id: string }>`SELECT id FROM accounts WHERE email = ${email}`;
  for (const id of spaces) {
    await createWiki(db, { id, visibility: "private", ownerAccountId: account!.id });
  }
  return { browser: b, accountId: account!.id };
}

/** A PKCE pair (RFC 7636, S256). */
export async function pkce() {
  const verifier = encodeBase64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: encodeBase64url(new Uint8Array(digest)) };
}

/** Registers a client through DCR and returns the server's answer. */
export async function register(app: Hono, metadata: Record<string, unknown> = {}) {
  const res = await app.request(`${BASE}/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: "Test app",
      redirect_uris: ["https://app.example/callback"],
      token_endpoint_auth_method: "none",
      ...metadata,
    }),
  });
  if (res.status !== 201) throw new Error(`registration failed: ${await res.text()}`);
  return await res.json() as { client_id: string; client_secret?: string; redirect_uris: string[] };
}

/** The parameters of an authorization request, with defaults for everything. */
export function authorizeParams(
  clientId: string,
  challenge: string,
  extra: Record<string, string> = {},
) {
  return new URLSearchParams({
    client_id: clientId,
    redirect_uri: "https://app.example/callback",
    response_type: "code",
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "st-123",
    resource: `${BASE}/mcp`,
    scope: "wiki:read",
    ...extra,
  });
}

/** Opens the consent page and answers it; returns the redirect response. */
export async function consent(
  b: Browser,
  params: URLSearchParams,
  options: { decision?: "allow" | "deny"; spaces?: string[] } = {},
): Promise<Response> {
  const page = await b.get(`${BASE}/authorize?${params}`);
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${await page.text()}`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
  const fields: [string, string][] = [...params, ["_csrf", csrf], [
    "decision",
    options.decision ?? "allow",
  ]];
  for (const space of options.spaces ?? ["ana-notes"]) fields.push(["space", space]);
  return await b.post(`${BASE}/authorize`, fields);
}

/** Runs a whole grant (register, consent, token) and returns the client, verifier and tokens. */
export async function grantTokens(app: Hono, b: Browser, spaces = ["ana-notes"]) {
  const client = await register(app);
  const { verifier, challenge } = await pkce();
  const redirect = await consent(b, authorizeParams(client.client_id, challenge), { spaces });
  const code = new URL(redirect.headers.get("location")!).searchParams.get("code")!;
  const res = await tokenRequest(app, {
    grant_type: "authorization_code",
    client_id: client.client_id,
    code,
    redirect_uri: "https://app.example/callback",
    code_verifier: verifier,
    resource: `${BASE}/mcp`,
  });
  const tokens = await res.json() as { access_token: string; refresh_token: string };
  return { client, verifier, code, tokens };
}

/** Posts a form to the token endpoint (or another one). */
export function tokenRequest(
  app: Hono,
  fields: Record<string, string> | [string, string][],
  path = "/token",
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(app.request(`${BASE}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  }));
}

/** Lists tools on /mcp with a bearer token and returns the status. */
export async function mcpStatus(app: Hono, token: string, path = "/mcp"): Promise<number> {
  const res = await app.request(`${BASE}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      Authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  await res.body?.cancel();
  return res.status;
}

import assert from "node:assert/strict";
import {
  auth,
  Client,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "npm:@modelcontextprotocol/client@2.4.0";
import * as oauth from "npm:oauth4webapi@3.8.8";
import { freshDb } from "./helpers.ts";
import { callError, callOk } from "./mcp_helpers.ts";
import { BASE, type Browser, grantTokens, oauthApp, signedIn } from "./oauth_helpers.ts";
import { writePage } from "../src/pages/write_page.ts";
import type { Hono } from "hono";

/** Follows the consent page the way a person would: read the form, tick spaces, Allow. */
async function approve(b: Browser, authorizeUrl: string, spaces: string[]): Promise<URL> {
  const page = await b.get(authorizeUrl);
  assert.equal(page.status, 200);
  const html = await page.text();
  const fields: [string, string][] = [];
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    fields.push([m[1]!, unescapeHtml(m[2]!)]);
  }
  for (const space of spaces) fields.push(["space", space]);
  fields.push(["decision", "allow"]);
  const res = await b.post(`${BASE}/authorize`, fields);
  assert.equal(res.status, 303);
  return new URL(res.headers.get("location")!);
}

function unescapeHtml(s: string): string {
  return s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(
    /&gt;/g,
    ">",
  ).replace(/&amp;/g, "&");
}

/** An MCP client on /mcp/ with a bearer token, its fetch calling the app. */
async function mcpWithToken(app: Hono, token: string): Promise<Client> {
  const client = new Client({ name: "oauth-tests", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${BASE}/mcp/`), {
      fetch: async (url, init) => await app.request(url.toString(), init),
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

Deno.test("oauth4webapi completes discovery, DCR, consent, code exchange, an MCP call and a refresh", async () => {
  await using db = await freshDb();
  const { app, deps } = oauthApp(db);
  const { browser: b, accountId } = await signedIn(app, db, "ana@example.com", ["ana-notes"]);
  await writePage(deps, {
    wikiId: "ana-notes",
    path: "Plan",
    markdown: "# Plan\nThe launch is in March.",
  }, { source: "test" });
  const options = {
    [oauth.customFetch]: async (url: string, init?: RequestInit) => await app.request(url, init),
  };

  // Discovery: the protected resource names its authorization server, which describes itself.
  const prm = await app.request(`${BASE}/.well-known/oauth-protected-resource/mcp`);
  const resource = await prm.json() as { resource: string; authorization_servers: string[] };
  assert.equal(resource.resource, `${BASE}/mcp`);
  const issuer = new URL(resource.authorization_servers[0]!);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...options, algorithm: "oauth2" }),
  );
  assert.equal(as.issuer, BASE);

  // Dynamic client registration.
  const redirectUri = "http://127.0.0.1:33418/callback";
  const registered = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(as, {
      client_name: "Reference client",
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
    }, options),
  );
  const client: oauth.Client = { client_id: registered.client_id };

  // Authorization with PKCE and state; the user consents in the browser.
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: "code",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    scope: "wiki:read",
    resource: `${BASE}/mcp`,
  }).toString();
  const callback = await approve(b, url.toString(), ["ana-notes"]);
  assert.equal(callback.origin + callback.pathname, redirectUri);
  const params = oauth.validateAuthResponse(as, client, callback, state); // checks iss and state

  // Code exchange.
  const exchanged = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      redirectUri,
      verifier,
      { ...options, additionalParameters: { resource: `${BASE}/mcp` } },
    ),
  );
  assert.equal(exchanged.token_type, "bearer");
  assert.match(exchanged.access_token, /^wk_oat_/);
  assert.match(exchanged.refresh_token!, /^wk_ort_/);
  assert.equal(exchanged.expires_in, 3600);
  assert.equal(exchanged.scope, "wiki:read");

  // The access token opens /mcp/ for the granted space.
  const mcp = await mcpWithToken(app, exchanged.access_token);
  const spaces = await callOk<{ spaces: { id: string }[] }>(mcp, "my_spaces");
  assert.deepEqual(spaces.spaces.map((s) => s.id), ["ana-notes"]);
  const used = await callOk<{ uses: number }>(mcp, "confirm_use", { page: "Plan" });
  assert.equal(used.uses, 1);
  const [use] = await db<{ client_name: string; credential_kind: string; account_id: string }>`
    SELECT client_name, credential_kind, account_id FROM page_uses`;
  assert.deepEqual(use, {
    client_name: "Reference client",
    credential_kind: "oauth",
    account_id: accountId,
  });

  // Refresh rotates: a new pair, and the old refresh token is spent.
  const refreshed = await oauth.processRefreshTokenResponse(
    as,
    client,
    await oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.None(),
      exchanged.refresh_token!,
      options,
    ),
  );
  assert.notEqual(refreshed.refresh_token, exchanged.refresh_token);
  assert.notEqual(refreshed.access_token, exchanged.access_token);
  const fresh = await mcpWithToken(app, refreshed.access_token);
  assert.equal((await callOk<{ spaces: unknown[] }>(fresh, "my_spaces")).spaces.length, 1);
});

Deno.test("an OAuth token reaches only the spaces granted at consent, and REST refuses it", async () => {
  await using db = await freshDb();
  const { app, deps } = oauthApp(db);
  const { browser: b } = await signedIn(app, db, "ana@example.com", ["ana-notes", "ana-work"]);
  const write = (wikiId: string, markdown: string) =>
    writePage(deps, { wikiId, path: "Page", markdown }, { source: "test" });
  await write("ana-notes", "# Page\nNotes about compost.");
  await write("ana-work", "# Page\nWork about compost.");
  const { tokens } = await grantTokens(app, b, ["ana-notes"]);

  const mcp = await mcpWithToken(app, tokens.access_token);
  const spaces = await callOk<{ spaces: { id: string }[] }>(mcp, "my_spaces");
  assert.deepEqual(spaces.spaces.map((s) => s.id), ["ana-notes"]);
  const page = await callOk<{ markdown: string }>(mcp, "get_page", { page: "Page" });
  assert.match(page.markdown, /Notes about compost/);
  assert.match(await callError(mcp, "get_page", { space: "ana-work", page: "Page" }), /ana-work/);
  assert.match(await callError(mcp, "search", { space: "ana-work", query: "compost" }), /ana-work/);

  for (const path of ["/api/v1/spaces", "/api/v1/spaces/ana-notes/ask"]) {
    const rest = await app.request(`${BASE}${path}`, {
      method: path.endsWith("ask") ? "POST" : "GET",
      headers: {
        Authorization: `Bearer ${tokens.access_token}`,
        "Content-Type": "application/json",
      },
      body: path.endsWith("ask") ? JSON.stringify({ question: "compost?" }) : undefined,
    });
    assert.equal(rest.status, 403, path);
    assert.equal(rest.headers.get("content-type"), "application/problem+json");
    assert.match((await rest.json()).detail, /MCP endpoint only/);
  }
});

/** An OAuthClientProvider kept in memory, as an MCP host application would implement it. */
class MemoryProvider implements OAuthClientProvider {
  client?: Awaited<ReturnType<OAuthClientProvider["clientInformation"]>>;
  saved?: Awaited<ReturnType<OAuthClientProvider["tokens"]>>;
  verifier = "";
  authorizationUrl?: URL;
  get redirectUrl() {
    return "http://localhost:6274/oauth/callback";
  }
  get clientMetadata() {
    return {
      client_name: "SDK client",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: NonNullable<MemoryProvider["client"]>) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: NonNullable<MemoryProvider["saved"]>) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  discovery?: OAuthDiscoveryState;
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

Deno.test("the MCP SDK client signs in with OAuth on its own: 401, discovery, DCR, PKCE, consent, token, tool call", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db, "ana@example.com", ["ana-notes"]);
  const provider = new MemoryProvider();
  const fetch = async (url: string | URL, init?: RequestInit) =>
    await app.request(url.toString(), init);
  const connect = async () => {
    const client = new Client({ name: "sdk-oauth", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp/`), {
      authProvider: provider,
      fetch,
    });
    await client.connect(transport);
    return { client, transport };
  };

  // The first connection meets the 401 challenge; the SDK discovers, registers and sends the
  // user to /authorize.
  await assert.rejects(connect(), UnauthorizedError);
  assert.ok(provider.client?.client_id, "the SDK registered a client");
  const authorizeUrl = provider.authorizationUrl!;
  assert.equal(authorizeUrl.origin + authorizeUrl.pathname, `${BASE}/authorize`);
  assert.equal(authorizeUrl.searchParams.get("code_challenge_method"), "S256");
  assert.equal(authorizeUrl.searchParams.get("resource"), `${BASE}/mcp`);

  const callback = await approve(b, authorizeUrl.toString(), ["ana-notes"]);
  assert.equal(callback.searchParams.get("iss"), BASE);
  const result = await auth(provider, {
    serverUrl: `${BASE}/mcp/`,
    authorizationCode: callback.searchParams.get("code")!,
    iss: callback.searchParams.get("iss")!,
    fetchFn: fetch,
  });
  assert.equal(result, "AUTHORIZED");
  assert.match(provider.saved!.access_token, /^wk_oat_/);

  const { client } = await connect();
  const spaces = await callOk<{ spaces: { id: string }[] }>(client, "my_spaces");
  assert.deepEqual(spaces.spaces.map((s) => s.id), ["ana-notes"]);
  await client.close();
});

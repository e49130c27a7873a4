import assert from "node:assert/strict";
import type { DocumentFetcher } from "../src/http/pinned_fetch.ts";
import { freshDb } from "./helpers.ts";
import {
  authorizeParams,
  BASE,
  browser,
  consent,
  grantTokens,
  mcpStatus,
  oauthApp,
  pkce,
  register,
  signedIn,
  tokenRequest,
} from "./oauth_helpers.ts";

const CALLBACK = "https://app.example/callback";

/** The query of a redirect's Location. */
function redirectQuery(res: Response): URLSearchParams {
  assert.ok([302, 303].includes(res.status), `expected a redirect, got ${res.status}`);
  return new URL(res.headers.get("location")!).searchParams;
}

/** Exchanges a code with defaults for every field. */
function exchange(app: Parameters<typeof tokenRequest>[0], fields: Record<string, string>) {
  return tokenRequest(app, {
    grant_type: "authorization_code",
    redirect_uri: CALLBACK,
    ...fields,
  });
}

async function oauthError(res: Response, status: number, error: string) {
  assert.equal(res.status, status);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.match(res.headers.get("content-type")!, /^application\/json/);
  const body = await res.json();
  assert.equal(body.error, error, body.error_description);
  assert.equal(typeof body.error_description, "string");
}

// Discovery

Deno.test("the authorization-server metadata has the issuer exactly and what MCP clients need", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const res = await app.request(`${BASE}/.well-known/oauth-authorization-server`);
  assert.equal(res.status, 200);
  const m = await res.json();
  assert.equal(m.issuer, BASE);
  assert.equal(m.authorization_endpoint, `${BASE}/authorize`);
  assert.equal(m.token_endpoint, `${BASE}/token`);
  assert.equal(m.registration_endpoint, `${BASE}/register`);
  assert.equal(m.revocation_endpoint, `${BASE}/revoke`);
  assert.deepEqual(m.code_challenge_methods_supported, ["S256"]);
  assert.deepEqual(m.response_types_supported, ["code"]);
  assert.deepEqual(m.grant_types_supported, ["authorization_code", "refresh_token"]);
  assert.deepEqual(m.token_endpoint_auth_methods_supported, [
    "none",
    "client_secret_post",
    "client_secret_basic",
  ]);
  assert.equal(m.client_id_metadata_document_supported, true);
  assert.equal(m.authorization_response_iss_parameter_supported, true);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
});

Deno.test("protected-resource metadata is served path-inserted and at the root", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  for (const path of ["/mcp", "/mcp/", ""]) {
    const res = await app.request(`${BASE}/.well-known/oauth-protected-resource${path}`);
    assert.equal(res.status, 200, path);
    const m = await res.json();
    assert.equal(m.resource, `${BASE}/mcp`);
    assert.deepEqual(m.authorization_servers, [BASE]);
    assert.deepEqual(m.scopes_supported, ["wiki:read", "wiki:write"]);
    assert.deepEqual(m.bearer_methods_supported, ["header"]);
  }
});

Deno.test("/mcp challenges with resource_metadata and scope; public endpoints never answer 401", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const post = (path: string, headers: Record<string, string> = {}) =>
    app.request(`${BASE}${path}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
  const none = await post("/mcp");
  assert.equal(none.status, 401);
  assert.equal(
    none.headers.get("www-authenticate"),
    `Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp", scope="wiki:read"`,
  );
  const bad = await post("/mcp/", { Authorization: "Bearer wk_oat_garbage" });
  assert.equal(bad.status, 401);
  assert.match(bad.headers.get("www-authenticate")!, /resource_metadata=.*error="invalid_token"/);
  const hub = await post("/mcp/hub/", { Authorization: "Bearer wk_oat_garbage" });
  assert.equal(hub.status, 200);
  assert.equal(hub.headers.get("www-authenticate"), null);
});

// Registration

Deno.test("POST /register answers 201 with the client id and echoed metadata; secret methods get a secret", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const cursor = [
    "cursor://anysphere.cursor-mcp/oauth/callback",
    "https://www.cursor.com/agents/mcp/oauth/callback",
    "http://localhost:8787/callback",
  ];
  const res = await app.request(`${BASE}/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: "Cursor",
      redirect_uris: cursor,
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
    }),
  });
  assert.equal(res.status, 201);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const body = await res.json();
  assert.match(body.client_id, /^wkc_/);
  assert.equal(typeof body.client_id_issued_at, "number");
  assert.deepEqual(body.redirect_uris, cursor);
  assert.equal(body.client_name, "Cursor");
  assert.equal(body.token_endpoint_auth_method, "none");
  assert.equal(body.client_secret, undefined);

  const secret = await register(app, {
    token_endpoint_auth_method: "client_secret_post",
    redirect_uris: ["https://claude.ai/api/mcp/auth_callback", "vscode://vscode.github-auth/cb"],
  });
  assert.match(secret.client_secret!, /^wk_ocs_/);
  assert.equal((secret as Record<string, unknown>).client_secret_expires_at, 0);
  const [row] = await db<{ secret_hash: string }>`
    SELECT secret_hash FROM oauth_clients WHERE id = ${secret.client_id}`;
  assert.notEqual(row!.secret_hash, secret.client_secret);
});

Deno.test("POST /register refuses bad redirect URIs and metadata with JSON errors", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const attempt = (body: unknown) =>
    app.request(`${BASE}/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  for (
    const uris of [
      undefined,
      [],
      ["javascript:alert(1)"],
      ["data:text/html,hi"],
      ["file:///etc/passwd"],
      ["vbscript:msgbox"],
      ["https://app.example/cb#frag"],
      ["http://app.example/cb"],
      ["https://user@app.example/cb"],
      ["https://app.example/ok", "http://evil.example/cb"],
    ]
  ) {
    await oauthError(await attempt({ redirect_uris: uris }), 400, "invalid_redirect_uri");
  }
  const ok = { redirect_uris: [CALLBACK] };
  await oauthError(
    await attempt({ ...ok, grant_types: ["implicit"] }),
    400,
    "invalid_client_metadata",
  );
  await oauthError(
    await attempt({ ...ok, response_types: ["token"] }),
    400,
    "invalid_client_metadata",
  );
  await oauthError(
    await attempt({ ...ok, redirect_uris: Array(11).fill(CALLBACK) }),
    400,
    "invalid_client_metadata",
  );
  const html = await app.request(`${BASE}/register`, { method: "POST", body: "x=1" });
  await oauthError(html, 400, "invalid_client_metadata");
});

// Authorization endpoint

Deno.test("GET /authorize with an unknown client_id shows an error page and does not redirect", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const res = await b.get(`${BASE}/authorize?${authorizeParams("wkc_nope", "x".repeat(43))}`);
  assert.equal(res.status, 400);
  assert.equal(res.headers.get("location"), null);
  assert.match(await res.text(), /not known here/);
});

Deno.test("GET /authorize refuses near-miss redirect URIs with an error page, never a redirect", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const client = await register(app);
  const { challenge } = await pkce();
  for (
    const uri of [
      "https://app.example/callback/extra",
      "https://app.example/Callback",
      "https://app.example/callback?x=1",
      "https://app.example/callback/",
      "http://app.example/callback",
      "https://app.example.evil.example/callback",
      "https://app.example@evil.example/callback",
      "https://app.example/callback#x",
      "https%3A%2F%2Fapp.example%2Fcallback",
    ]
  ) {
    const res = await b.get(
      `${BASE}/authorize?${authorizeParams(client.client_id, challenge, { redirect_uri: uri })}`,
    );
    assert.equal(res.status, 400, uri);
    assert.equal(res.headers.get("location"), null, uri);
  }
});

Deno.test("a loopback redirect may change its port, not its path or host", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const client = await register(app, { redirect_uris: ["http://127.0.0.1:33418/callback"] });
  const { challenge } = await pkce();
  const at = (uri: string) =>
    b.get(
      `${BASE}/authorize?${authorizeParams(client.client_id, challenge, { redirect_uri: uri })}`,
    );
  assert.equal((await at("http://127.0.0.1:51234/callback")).status, 200);
  assert.equal((await at("http://127.0.0.1/callback")).status, 200);
  assert.equal((await at("http://127.0.0.1:51234/other")).status, 400);
  assert.equal((await at("http://localhost:33418/callback")).status, 400);
});

Deno.test("GET /authorize redirects invalid_request for a missing or plain PKCE challenge", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const client = await register(app);
  const { challenge } = await pkce();
  const cases: Record<string, string>[] = [
    { code_challenge: "" },
    { code_challenge_method: "plain" },
    { code_challenge_method: "" },
    { code_challenge: "short" },
  ];
  for (const extra of cases) {
    const params = authorizeParams(client.client_id, challenge, extra);
    for (const [k, v] of Object.entries(extra)) if (!v) params.delete(k);
    const q = redirectQuery(await b.get(`${BASE}/authorize?${params}`));
    assert.equal(q.get("error"), "invalid_request", JSON.stringify(extra));
    assert.equal(q.get("state"), "st-123");
    assert.equal(q.get("iss"), BASE);
  }
  const token = redirectQuery(
    await b.get(
      `${BASE}/authorize?${
        authorizeParams(client.client_id, challenge, { response_type: "token" })
      }`,
    ),
  );
  assert.equal(token.get("error"), "unsupported_response_type");
  const scope = redirectQuery(
    await b.get(
      `${BASE}/authorize?${authorizeParams(client.client_id, challenge, { scope: "admin" })}`,
    ),
  );
  assert.equal(scope.get("error"), "invalid_scope");
});

Deno.test("resource: our origin and /mcp, with or without a slash, are accepted; anything else is invalid_target", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const client = await register(app);
  const { challenge } = await pkce();
  for (const resource of [BASE, `${BASE}/`, `${BASE}/mcp`, `${BASE}/mcp/`]) {
    const res = await b.get(
      `${BASE}/authorize?${authorizeParams(client.client_id, challenge, { resource })}`,
    );
    assert.equal(res.status, 200, resource);
  }
  for (
    const resource of [
      "https://evil.example/mcp",
      "/mcp",
      `${BASE}/mcp#x`,
      `${BASE}/api/v1`,
      "https://wiki.test.evil.example/mcp",
    ]
  ) {
    const q = redirectQuery(
      await b.get(
        `${BASE}/authorize?${authorizeParams(client.client_id, challenge, { resource })}`,
      ),
    );
    assert.equal(q.get("error"), "invalid_target", resource);
  }
});

Deno.test("signed out, /authorize sends the browser to sign in and back again", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  await signedIn(app, db);
  const client = await register(app);
  const { challenge } = await pkce();
  const b = browser(app);
  const url = `/authorize?${authorizeParams(client.client_id, challenge)}`;
  const res = await b.get(`${BASE}${url}`);
  assert.equal(res.status, 302);
  const signin = res.headers.get("location")!;
  assert.equal(signin, `/signin?next=${encodeURIComponent(url)}`);
  const form = await b.get(`${BASE}${signin}`);
  const html = await form.text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
  assert.match(html, /name="next"/);
  const signedInRes = await b.post(`${BASE}/signin`, {
    _csrf: csrf,
    next: url,
    email: "ana@example.com",
    password: "correct horse battery staple",
  });
  assert.equal(signedInRes.status, 303);
  assert.equal(signedInRes.headers.get("location"), url);
  assert.equal((await b.get(`${BASE}${url}`)).status, 200);
  // `next` never leaves the site.
  const other = browser(app);
  const evil = await other.post(`${BASE}/signin`, {
    _csrf: await other.token("/signin"),
    next: "//evil.example/x",
    email: "ana@example.com",
    password: "correct horse battery staple",
  });
  assert.equal(evil.headers.get("location"), "/account");
});

Deno.test("the consent page names the app and the redirect host, lists spaces, and cannot be framed", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db, "ana@example.com", ["ana-notes", "ana-work"]);
  const client = await register(app, { client_name: "Helpful <b>App</b>" });
  const { challenge } = await pkce();
  const res = await b.get(`${BASE}/authorize?${authorizeParams(client.client_id, challenge)}`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-security-policy")!, /frame-ancestors 'none'/);
  assert.equal(res.headers.get("x-frame-options"), "DENY");
  assert.equal(res.headers.get("cache-control"), "no-store");
  const html = await res.text();
  assert.match(html, /Helpful &lt;b&gt;App&lt;\/b&gt;/);
  assert.match(html, /app\.example/);
  assert.match(html, /name="space" value="ana-notes"/);
  assert.match(html, /name="space" value="ana-work"/);
});

Deno.test("the consent page mentions allowing edits only when the app asks for wiki:write", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const { challenge } = await pkce();
  const reader = await register(app);
  const readOnly = await b.get(`${BASE}/authorize?${authorizeParams(reader.client_id, challenge)}`);
  const readHtml = await readOnly.text();
  assert.doesNotMatch(readHtml, /name="allow_write"/);
  assert.doesNotMatch(readHtml, /edits below/);
  assert.match(readHtml, /It cannot change or delete anything\./);
  const writer = await register(app, { scope: "wiki:read wiki:write" });
  const params = authorizeParams(writer.client_id, challenge, { scope: "wiki:read wiki:write" });
  const writeHtml = await (await b.get(`${BASE}/authorize?${params}`)).text();
  assert.match(writeHtml, /name="allow_write"/);
  assert.match(writeHtml, /It cannot change or delete anything unless you allow edits below\./);
});

Deno.test("a consent post without the CSRF token, without a session, or for another's space is refused", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  await signedIn(app, db, "bo@example.com", ["bo-notes"]);
  const client = await register(app);
  const { challenge } = await pkce();
  const params = authorizeParams(client.client_id, challenge);
  const noCsrf = await b.post(`${BASE}/authorize`, [...params, ["decision", "allow"]]);
  assert.equal(noCsrf.status, 403);
  assert.equal(noCsrf.headers.get("location"), null);
  const stranger = browser(app);
  const csrf = await stranger.token("/signin");
  const noSession = await stranger.post(`${BASE}/authorize`, [
    ...params,
    ["_csrf", csrf],
    ["decision", "allow"],
  ]);
  assert.equal(noSession.status, 403);
  assert.equal(noSession.headers.get("location"), null);
  const foreign = await consent(b, params, { spaces: ["bo-notes"] });
  assert.equal(foreign.status, 403);
  assert.equal(await db`SELECT 1 FROM oauth_codes`.then((r) => r.length), 0);
});

Deno.test("Allow with no space ticked is refused with a clear message, and grants nothing", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const client = await register(app);
  const { challenge } = await pkce();
  const none = await consent(b, authorizeParams(client.client_id, challenge), { spaces: [] });
  assert.equal(none.status, 400);
  assert.equal(none.headers.get("location"), null, "no redirect back to the app");
  const page = await none.text();
  assert.match(page, /Tick at least one space for the app to read, or choose Deny/);
  assert.match(page, /name="space" value="ana-notes"/, "the form is shown again");
  assert.equal(await db`SELECT 1 FROM oauth_codes`.then((r) => r.length), 0);
});

Deno.test("Deny redirects access_denied; state comes back unchanged with iss on every answer", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const client = await register(app);
  const { challenge } = await pkce();
  const state = "a b+c/d=e&f?g~h%20é";
  const denied = await consent(b, authorizeParams(client.client_id, challenge, { state }), {
    decision: "deny",
  });
  assert.equal(denied.status, 303);
  const q = redirectQuery(denied);
  assert.equal(q.get("error"), "access_denied");
  assert.equal(q.get("state"), state);
  assert.equal(q.get("iss"), BASE);
  assert.equal(q.get("code"), null);
  const allowed = redirectQuery(
    await consent(b, authorizeParams(client.client_id, challenge, { state })),
  );
  assert.equal(allowed.get("state"), state);
  assert.equal(allowed.get("iss"), BASE);
  assert.ok(allowed.get("code"));
});

// Token endpoint: authorization_code

/** A client, a signed-in browser and a fresh code for them. */
async function codeFor(app: Parameters<typeof register>[0], db: Parameters<typeof signedIn>[1]) {
  const { browser: b } = await signedIn(app, db);
  const client = await register(app);
  const { verifier, challenge } = await pkce();
  const q = redirectQuery(await consent(b, authorizeParams(client.client_id, challenge)));
  return { b, client, verifier, code: q.get("code")! };
}

Deno.test("POST /token returns Bearer tokens with no-store, and only hashes are stored", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { client, verifier, code } = await codeFor(app, db);
  const res = await exchange(app, { client_id: client.client_id, code, code_verifier: verifier });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.match(res.headers.get("content-type")!, /^application\/json/);
  const body = await res.json();
  assert.match(body.access_token, /^wk_oat_[A-Za-z0-9_-]{43}$/);
  assert.match(body.refresh_token, /^wk_ort_[A-Za-z0-9_-]{43}$/);
  assert.equal(body.token_type, "Bearer");
  assert.equal(body.expires_in, 3600);
  assert.equal(body.scope, "wiki:read");
  const stored = JSON.stringify(
    await db`SELECT * FROM oauth_access_tokens, oauth_refresh_tokens, oauth_codes`,
  );
  assert.ok(!stored.includes(body.access_token.slice(7)));
  assert.ok(!stored.includes(body.refresh_token.slice(7)));
  assert.ok(!stored.includes(code));
  assert.equal(await mcpStatus(app, body.access_token), 200);
});

Deno.test("POST /token refuses a wrong, missing or malformed code_verifier with invalid_grant", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { client, code } = await codeFor(app, db);
  const wrong = (await pkce()).verifier;
  for (const code_verifier of [wrong, "", "a".repeat(42), "a".repeat(129), "é".repeat(43)]) {
    const fields: Record<string, string> = { client_id: client.client_id, code, code_verifier };
    if (!code_verifier) delete fields.code_verifier;
    await oauthError(await exchange(app, fields), 400, "invalid_grant");
  }
});

Deno.test("a reused code is refused and the tokens issued from it are revoked", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { client, verifier, code } = await codeFor(app, db);
  const fields = { client_id: client.client_id, code, code_verifier: verifier };
  const first = await (await exchange(app, fields)).json();
  assert.equal(await mcpStatus(app, first.access_token), 200);
  await oauthError(await exchange(app, fields), 400, "invalid_grant");
  assert.equal(await mcpStatus(app, first.access_token), 401);
  const refresh = await tokenRequest(app, {
    grant_type: "refresh_token",
    client_id: client.client_id,
    refresh_token: first.refresh_token,
  });
  await oauthError(refresh, 400, "invalid_grant");
});

Deno.test("an expired code is refused with invalid_grant", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { client, verifier, code } = await codeFor(app, db);
  await db`UPDATE oauth_codes SET expires_at = now() - interval '1 second'`;
  await oauthError(
    await exchange(app, { client_id: client.client_id, code, code_verifier: verifier }),
    400,
    "invalid_grant",
  );
});

Deno.test("POST /token refuses another redirect_uri, another client and another resource", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { client, verifier, code } = await codeFor(app, db);
  const base = { client_id: client.client_id, code, code_verifier: verifier };
  for (
    const redirect_uri of [
      "https://app.example/other",
      "http://app.example/callback",
      `${CALLBACK}?x=1`,
    ]
  ) {
    await oauthError(await exchange(app, { ...base, redirect_uri }), 400, "invalid_grant");
  }
  const other = await register(app);
  await oauthError(
    await exchange(app, { ...base, client_id: other.client_id }),
    400,
    "invalid_grant",
  );
  await oauthError(
    await exchange(app, { ...base, resource: "https://evil.example/mcp" }),
    400,
    "invalid_target",
  );
  // None of these used the code up.
  assert.equal((await exchange(app, { ...base, resource: `${BASE}/mcp/` })).status, 200);
});

Deno.test("a secret client must authenticate: basic and post work, a wrong or missing secret gets 401", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const client = await register(app, { token_endpoint_auth_method: "client_secret_basic" });
  const basic = (secret: string) =>
    `Basic ${btoa(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`)}`;
  const newCode = async () => {
    const { verifier, challenge } = await pkce();
    const q = redirectQuery(await consent(b, authorizeParams(client.client_id, challenge)));
    return { code: q.get("code")!, code_verifier: verifier };
  };
  const c1 = await newCode();
  for (
    const attempt of [
      tokenRequest(
        app,
        { grant_type: "authorization_code", redirect_uri: CALLBACK, ...c1 },
        "/token",
        {
          Authorization: basic("wrong"),
        },
      ),
      exchange(app, { client_id: client.client_id, ...c1 }),
      exchange(app, { client_id: client.client_id, client_secret: "wrong", ...c1 }),
    ]
  ) {
    const res = await attempt;
    assert.equal(res.headers.get("www-authenticate"), 'Basic realm="oauth"');
    await oauthError(res, 401, "invalid_client");
  }
  const viaBasic = await tokenRequest(
    app,
    { grant_type: "authorization_code", redirect_uri: CALLBACK, ...c1 },
    "/token",
    { Authorization: basic(client.client_secret!) },
  );
  assert.equal(viaBasic.status, 200);
  const c2 = await newCode();
  const viaPost = await exchange(app, {
    client_id: client.client_id,
    client_secret: client.client_secret!,
    ...c2,
  });
  assert.equal(viaPost.status, 200);
});

Deno.test("POST /token wants a form without repeats and a supported grant_type", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { client, verifier, code } = await codeFor(app, db);
  const json = await app.request(`${BASE}/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ grant_type: "authorization_code", code }),
  });
  await oauthError(json, 400, "invalid_request");
  await oauthError(
    await tokenRequest(app, [
      ["grant_type", "authorization_code"],
      ["client_id", client.client_id],
      ["code", code],
      ["code", "other"],
      ["code_verifier", verifier],
    ]),
    400,
    "invalid_request",
  );
  for (const grant_type of ["password", "implicit", "client_credentials"]) {
    await oauthError(
      await tokenRequest(app, { grant_type, client_id: client.client_id }),
      400,
      "unsupported_grant_type",
    );
  }
});

// Token endpoint: refresh_token

Deno.test("refresh rotates: a new refresh token each time, and the old one stops working", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const { client, tokens } = await grantTokens(app, b);
  const refresh = (refresh_token: string, client_id = client.client_id) =>
    tokenRequest(app, { grant_type: "refresh_token", client_id, refresh_token });
  const res = await refresh(tokens.refresh_token);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const next = await res.json();
  assert.notEqual(next.refresh_token, tokens.refresh_token);
  assert.equal(await mcpStatus(app, next.access_token), 200);
  const other = await register(app);
  await oauthError(await refresh(next.refresh_token, other.client_id), 400, "invalid_grant");
  const upgrade = await tokenRequest(app, {
    grant_type: "refresh_token",
    client_id: client.client_id,
    refresh_token: next.refresh_token,
    scope: "wiki:read wiki:write",
  });
  await oauthError(upgrade, 400, "invalid_scope");
  assert.equal((await refresh(next.refresh_token)).status, 200);
});

Deno.test("reusing a rotated-out refresh token revokes the whole family", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const { client, tokens } = await grantTokens(app, b);
  const refresh = (refresh_token: string) =>
    tokenRequest(app, { grant_type: "refresh_token", client_id: client.client_id, refresh_token });
  const next = await (await refresh(tokens.refresh_token)).json();
  await oauthError(await refresh(tokens.refresh_token), 400, "invalid_grant");
  assert.equal(await mcpStatus(app, next.access_token), 401);
  await oauthError(await refresh(next.refresh_token), 400, "invalid_grant");
});

// Revocation and the resource server

Deno.test("POST /revoke answers 200 for unknown tokens and revokes the family of a known one", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const { client, tokens } = await grantTokens(app, b);
  const revoke = (token: string, client_id = client.client_id) =>
    tokenRequest(app, { token, client_id }, "/revoke");
  assert.equal((await revoke("wk_ort_unknown")).status, 200);
  const other = await register(app);
  assert.equal((await revoke(tokens.refresh_token, other.client_id)).status, 200);
  assert.equal(await mcpStatus(app, tokens.access_token), 200, "another client cannot revoke it");
  assert.equal((await revoke(tokens.refresh_token)).status, 200);
  const res = await app.request(`${BASE}/mcp`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      Authorization: `Bearer ${tokens.access_token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  assert.equal(res.status, 401);
  assert.match(res.headers.get("www-authenticate")!, /error="invalid_token"/);
});

Deno.test("/mcp refuses a token in the query string, an expired one and one for another resource", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const { tokens } = await grantTokens(app, b);
  const query = await app.request(`${BASE}/mcp?access_token=${tokens.access_token}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  assert.equal(query.status, 400);
  assert.equal(await mcpStatus(app, tokens.access_token), 200);
  await db`UPDATE oauth_access_tokens SET audience = 'https://other.example/mcp'`;
  assert.equal(await mcpStatus(app, tokens.access_token), 401);
  await db`UPDATE oauth_access_tokens SET audience = ${`${BASE}/mcp`},
    expires_at = now() - interval '1 second'`;
  assert.equal(await mcpStatus(app, tokens.access_token), 401);
});

Deno.test("connected apps lists the account's grants and disconnects one with the CSRF token", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const { tokens } = await grantTokens(app, b);
  const page = await b.get(`${BASE}/account/apps`);
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /Test app/);
  const action = /action="(\/account\/apps\/[^"]+\/revoke)"/.exec(html)![1]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
  assert.equal((await b.post(`${BASE}${action}`, {})).status, 403);
  assert.equal(await mcpStatus(app, tokens.access_token), 200);
  const done = await b.post(`${BASE}${action}`, { _csrf: csrf });
  assert.equal(done.status, 303);
  assert.equal(await mcpStatus(app, tokens.access_token), 401);
  assert.doesNotMatch(await (await b.get(`${BASE}/account/apps`)).text(), /Test app/);
  const stranger = await browser(app).get(`${BASE}/account/apps`);
  assert.equal(stranger.status, 303);
  assert.match(stranger.headers.get("location")!, /^\/signin/);
});

// Client ID Metadata Documents

const DOC_URL = "https://app.example/oauth/client.json";

/** A fetcher serving one document from a public address, recording what it fetched. */
function fakeNetwork(
  options: { addresses?: string[]; body?: unknown; status?: number; headers?: HeadersInit } = {},
) {
  const fetched: string[] = [];
  const fetcher: DocumentFetcher = {
    resolveDns: () => Promise.resolve(options.addresses ?? ["93.184.215.14"]),
    fetch: (url) => {
      fetched.push(url);
      const body = typeof options.body === "string" ? options.body : JSON.stringify(
        options.body ?? {
          client_id: DOC_URL,
          client_name: "Doc App",
          redirect_uris: [CALLBACK],
          token_endpoint_auth_method: "none",
        },
      );
      return Promise.resolve(
        new Response(body, {
          status: options.status ?? 200,
          headers: options.headers ?? { "Content-Type": "application/json" },
        }),
      );
    },
  };
  return { fetcher, fetched };
}

Deno.test("a metadata-document client signs in without registering; the document is cached", async () => {
  await using db = await freshDb();
  const net = fakeNetwork();
  const { app } = oauthApp(db, net.fetcher);
  const { browser: b } = await signedIn(app, db);
  const { verifier, challenge } = await pkce();
  const page = await b.get(`${BASE}/authorize?${authorizeParams(DOC_URL, challenge)}`);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /Doc App[\s\S]*published by app\.example/);
  const q = redirectQuery(await consent(b, authorizeParams(DOC_URL, challenge)));
  const res = await exchange(app, {
    client_id: DOC_URL,
    code: q.get("code")!,
    code_verifier: verifier,
  });
  assert.equal(res.status, 200);
  assert.deepEqual(net.fetched, [DOC_URL], "fetched once, then served from the cache");
});

Deno.test("metadata documents at private addresses, over http or with a foreign client_id are refused", async () => {
  const { challenge } = await pkce();
  const cases: [string, ReturnType<typeof fakeNetwork>, string][] = [
    ["resolves to 10/8", fakeNetwork({ addresses: ["10.0.0.5"] }), DOC_URL],
    ["resolves to loopback v6", fakeNetwork({ addresses: ["93.184.215.14", "::1"] }), DOC_URL],
    ["metadata address literal", fakeNetwork(), "https://169.254.169.254/latest/meta-data"],
    ["loopback literal", fakeNetwork(), "https://127.0.0.1/client.json"],
    ["localhost name", fakeNetwork(), "https://localhost/client.json"],
    ["not https", fakeNetwork(), "http://app.example/oauth/client.json"],
    ["no path", fakeNetwork(), "https://app.example/"],
    ["userinfo", fakeNetwork(), "https://u@app.example/client.json"],
    [
      "client_id mismatch",
      fakeNetwork({ body: { client_id: "https://other.example/c", redirect_uris: [CALLBACK] } }),
      DOC_URL,
    ],
    [
      "claims a secret",
      fakeNetwork({
        body: {
          client_id: DOC_URL,
          redirect_uris: [CALLBACK],
          token_endpoint_auth_method: "client_secret_post",
        },
      }),
      DOC_URL,
    ],
    [
      "oversized",
      fakeNetwork({ body: JSON.stringify({ client_id: DOC_URL, x: "a".repeat(11_000) }) }),
      DOC_URL,
    ],
    ["not JSON", fakeNetwork({ headers: { "Content-Type": "text/html" } }), DOC_URL],
    [
      "a redirect",
      fakeNetwork({ status: 302, headers: { Location: "https://evil.example/" } }),
      DOC_URL,
    ],
    [
      "unlisted redirect_uri",
      fakeNetwork({ body: { client_id: DOC_URL, redirect_uris: ["https://app.example/other"] } }),
      DOC_URL,
    ],
  ];
  for (const [name, net, clientId] of cases) {
    await using db2 = await freshDb();
    const { app } = oauthApp(db2, net.fetcher);
    const { browser: b } = await signedIn(app, db2);
    const res = await b.get(`${BASE}/authorize?${authorizeParams(clientId, challenge)}`);
    assert.equal(res.status, 400, name);
    assert.equal(res.headers.get("location"), null, name);
    if (/resolves|literal|localhost|https|path|userinfo/.test(name)) {
      assert.deepEqual(net.fetched, [], `${name}: never fetched`);
    }
  }
});

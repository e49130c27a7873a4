import assert from "node:assert/strict";
import { runAdmin } from "../scripts/admin.ts";
import { writePage } from "../src/pages/write_page.ts";
import { freshDb, testDeps } from "./helpers.ts";
import { callError, callOk, mcpClient } from "./mcp_helpers.ts";
import {
  authorizeParams,
  BASE,
  consent,
  oauthApp,
  pkce,
  register,
  signedIn,
  tokenRequest,
} from "./oauth_helpers.ts";

// Writing is a scope: OAuth asks for wiki:write apart, tokens are made read or read_propose.

/** A whole OAuth grant asking for wiki:read and wiki:write, with the write box ticked or not. */
async function grant(
  app: ReturnType<typeof oauthApp>["app"],
  b: Awaited<ReturnType<typeof signedIn>>["browser"],
  allowWrite: boolean,
) {
  const client = await register(app, { scope: "wiki:read wiki:write" });
  const { verifier, challenge } = await pkce();
  const params = authorizeParams(client.client_id, challenge, { scope: "wiki:read wiki:write" });
  const page = await (await b.get(`${BASE}/authorize?${params}`)).text();
  assert.match(page, /Also let it propose edits to these spaces \(wiki:write\)/);
  const redirect = allowWrite
    ? await b.post(`${BASE}/authorize`, [
      ...params,
      ["_csrf", /name="_csrf" value="([^"]+)"/.exec(page)![1]!],
      ["decision", "allow"],
      ["space", "ana-notes"],
      ["allow_write", "on"],
    ])
    : await consent(b, params);
  const code = new URL(redirect.headers.get("location")!).searchParams.get("code")!;
  const res = await tokenRequest(app, {
    grant_type: "authorization_code",
    client_id: client.client_id,
    code,
    redirect_uri: "https://app.example/callback",
    code_verifier: verifier,
    resource: `${BASE}/mcp`,
  });
  return await res.json() as { access_token: string; scope: string };
}

Deno.test("OAuth grants wiki:write only when the person ticks it, and only then may the app propose", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  await writePage(testDeps(db), { wikiId: "ana-notes", path: "Plan", markdown: "# Plan\n" }, {
    source: "test",
  });
  const readOnly = await grant(app, b, false);
  assert.equal(readOnly.scope, "wiki:read");
  const reader = await mcpClient(app, "/mcp", readOnly.access_token);
  assert.match(
    await callError(reader, "propose_edit", {
      page: "Plan",
      markdown: "# Plan\n\nv2\n",
      base_revision: 1,
    }),
    /This connection may only read: sign in again and allow "wiki:write"/,
  );
  const writer = await grant(app, b, true);
  assert.equal(writer.scope, "wiki:read wiki:write");
  const client = await mcpClient(app, "/mcp", writer.access_token);
  const out = await callOk<{ status: string }>(client, "propose_edit", {
    page: "Plan",
    markdown: "# Plan\n\nv2\n",
    base_revision: 1,
  });
  assert.equal(out.status, "open");
});

Deno.test("the tokens form makes a read-and-propose token; tokens are read-only by default", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser: b } = await signedIn(app, db);
  const csrf = await b.token("/account/tokens");
  const made = await b.post("/account/tokens", {
    _csrf: csrf,
    name: "writer",
    space: "ana-notes",
    scope: "read_propose",
  });
  assert.equal(made.status, 200);
  assert.match(await made.text(), /space: ana-notes, read and propose/);
  await b.post("/account/tokens", { _csrf: csrf, name: "reader", space: "" });
  const rows = await db<
    { name: string; scope: string }
  >`SELECT name, scope FROM tokens ORDER BY name`;
  assert.deepEqual(rows.map((r) => [r.name, r.scope]), [["reader", "read"], [
    "writer",
    "read_propose",
  ]]);
});

Deno.test("the admin command makes tokens with a scope, read by default, and refuses others", async () => {
  await using db = await freshDb();
  await runAdmin(db, ["create-account", "--email", "op@example.com"]);
  await runAdmin(db, ["create-token", "--email", "op@example.com", "--name", "r"]);
  await runAdmin(db, [
    "create-token",
    "--email",
    "op@example.com",
    "--name",
    "w",
    "--scope",
    "read_propose",
  ]);
  await assert.rejects(
    runAdmin(db, ["create-token", "--email", "op@example.com", "--name", "x", "--scope", "all"]),
    /--scope is read or read_propose/,
  );
  const listed = await runAdmin(db, ["list-tokens", "--email", "op@example.com"]);
  assert.match(listed, /\tr\t[^\n]*\tread\tlive/);
  assert.match(listed, /\tw\t[^\n]*\tread_propose\tlive/);
});

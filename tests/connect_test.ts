import assert from "node:assert/strict";
import type { Hono } from "hono";
import { createToken } from "../src/auth/tokens.ts";
import {
  type ClientConfig,
  CLIENTS,
  type Endpoint,
  TOKEN_PLACEHOLDER,
} from "../src/connect/client_configs.ts";
import type { Db } from "../src/db/db.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { browser } from "./browser.ts";
import { freshDb, testApp } from "./helpers.ts";

function config(id: string, endpoint: Endpoint): ClientConfig {
  return CLIENTS.find((c) => c.id === id)!.config(endpoint);
}

/** Signs up an account in a new browser; returns the browser and the account's id. */
async function person(app: Hono, db: Db, email: string) {
  const b = browser(app);
  const res = await b.post("/signup", {
    _csrf: await b.token("/signup"),
    email,
    password: "a long enough password",
  });
  assert.equal(res.status, 303);
  const [row] = await db<{ id: string }>`SELECT id FROM accounts WHERE email = ${email}`;
  return { b, id: row!.id };
}

/** The text of an HTML snippet's `<code id=…>`, unescaped. */
function code(html: string, id: string): string | undefined {
  const match = new RegExp(`<code id="${id}"[^>]*>([\\s\\S]*?)</code>`).exec(html);
  return match?.[1]?.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'").replaceAll("&amp;", "&");
}

Deno.test("GET /connect gives every client's snippet for the hub and the private endpoint, signed out too", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, { BASE_URL: "https://wiki.example.com" });
  const res = await app.request("/connect");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-security-policy") ?? "", /script-src 'self'/);
  const html = await res.text();
  assert.match(html, /<h1>Connect an assistant<\/h1>/);
  for (const client of CLIENTS) {
    assert.match(html, new RegExp(`<h2 class="tab-label" id="${client.id}-title">`), client.title);
    for (const key of ["hub", "private"]) {
      const snippet = code(html, `${client.id}-${key}`);
      assert.ok(snippet, `${client.id}-${key} is on the page`);
      const url = key === "hub"
        ? "https://wiki.example.com/mcp/hub/"
        : "https://wiki.example.com/mcp/";
      assert.ok(snippet.includes(url), `${client.id}-${key} names ${url}`);
      assert.match(
        html,
        new RegExp(
          `<button type="button" class="copy" data-copy="${client.id}-${key}" hidden(="")?>`,
        ),
      );
    }
  }
  assert.equal(
    code(html, "cursor-hub"),
    config("cursor", {
      url: "https://wiki.example.com/mcp/hub/",
      name: "wiki-hub",
      private: false,
    }).snippet,
  );
  assert.ok(
    code(html, "cursor-private")!.includes(`"Authorization": "Bearer ${TOKEN_PLACEHOLDER}"`),
  );
  assert.ok(!code(html, "cursor-hub")!.includes(TOKEN_PLACEHOLDER));
  assert.match(html, /<a href="\/account\/tokens">your tokens<\/a>/);
  assert.match(html, /sign you\s+in with OAuth/);
  assert.match(html, /<script src="\/assets\/copy\.js" defer><\/script>/);
  assert.doesNotMatch(html, /<script>|onclick=/, "no inline script or handler");
  assert.doesNotMatch(html, /cannot be reached from the internet/);
  assert.equal((await app.request("/assets/copy.js")).status, 200);

  const local = await (await testApp(db).app.request("/connect")).text();
  assert.match(local, /http:\/\/wiki\.test\/mcp\/hub\//);
  assert.match(local, /cannot be reached from the internet/);
});

Deno.test("the connect pages never show a real token, even to a signed-in owner of tokens", async () => {
  await using db = await freshDb();
  const { app } = testApp(db);
  const ana = await person(app, db, "ana@example.com");
  await createWiki(db, { id: "notes", title: "Notes", ownerAccountId: ana.id });
  const tokens = [
    (await createToken(db, { accountId: ana.id, kind: "account", name: "a" })).token,
    (await createToken(db, { accountId: ana.id, kind: "space", spaceId: "notes", name: "s" }))
      .token,
  ];
  for (const path of ["/connect", "/w/notes/-/connect"]) {
    const html = await (await ana.b.get(path)).text();
    for (const token of tokens) assert.ok(!html.includes(token), `${path} shows no token`);
    assert.doesNotMatch(html, /wk_(acct|space|oat|ort)_[A-Za-z0-9]/);
    assert.ok(html.includes("&lt;YOUR_TOKEN&gt;"));
  }
  const all = await (await ana.b.get("/connect")).text();
  assert.match(all, /For one wiki only: <a href="\/w\/notes\/-\/connect">Notes<\/a>/);
});

Deno.test("GET /w/:id/-/connect: a public wiki's own endpoint for all, the private endpoint for members", async () => {
  await using db = await freshDb();
  const { app } = testApp(db);
  const ana = await person(app, db, "ana@example.com");
  const bo = await person(app, db, "bo@example.com");
  await createWiki(db, {
    id: "garden",
    title: "Garden",
    visibility: "public",
    ownerAccountId: ana.id,
  });
  await createWiki(db, { id: "notes", title: "Notes", ownerAccountId: ana.id });

  const visitor = await app.request("/w/garden/-/connect");
  assert.equal(visitor.status, 200);
  const html = await visitor.text();
  assert.match(html, /<h1>Connect an assistant to Garden<\/h1>/);
  assert.equal(
    code(html, "claude-code-public"),
    "claude mcp add --transport http wiki-garden http://wiki.test/mcp/w/garden/",
  );
  assert.equal(code(html, "claude-code-private"), undefined, "no private endpoint for visitors");
  assert.doesNotMatch(html, /YOUR_TOKEN/);
  assert.equal(
    JSON.parse(code(html, "windsurf-public")!).mcpServers["wiki-garden"].serverUrl,
    "http://wiki.test/mcp/w/garden/",
  );

  const member = await (await ana.b.get("/w/garden/-/connect")).text();
  assert.ok(code(member, "claude-code-public"));
  assert.equal(
    JSON.parse(code(member, "gemini-cli-private")!).mcpServers["wiki-garden-member"].url,
    "http://wiki.test/mcp/",
  );

  const space = await (await ana.b.get("/w/notes/-/connect")).text();
  assert.equal(code(space, "claude-code-public"), undefined);
  assert.match(code(space, "claude-code-private")!, /wiki-notes http:\/\/wiki\.test\/mcp\/ /);
  assert.match(space, /<code>space: &quot;notes&quot;<\/code>/);

  assert.equal((await bo.b.get("/w/notes/-/connect")).status, 404, "a stranger: no such wiki");
  assert.equal((await bo.b.get("/w/nowhere/-/connect")).status, 404);
  // Signed out, a private space is as unknown as a missing one; the 404 page offers sign-in.
  const anonymous = await app.request("/w/notes/-/connect");
  assert.equal(anonymous.status, 404);
  assert.match(await anonymous.text(), /signin\?next=%2Fw%2Fnotes%2F-%2Fconnect/);
  assert.equal((await app.request("/w/nowhere/-/connect")).status, 404);
});

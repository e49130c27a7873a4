import assert from "node:assert/strict";
import { freshDb } from "./helpers.ts";
import { person, seedPages, spaceApp } from "./space_helpers.ts";
import { createWiki } from "../src/wikis/wikis.ts";

const MCP_INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "cookie-test", version: "1" },
  },
};

Deno.test("no /api or /mcp response reads or sets the session cookie on the real createApp", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "secret", visibility: "private", ownerAccountId: ana.id });
  await seedPages(deps, "secret", { "Plans": "# Plans\n\nThe launch date is in March." });
  await createWiki(db, { id: "open", visibility: "public", ownerAccountId: ana.id });
  await seedPages(deps, "open", { "Home": "# Home\n\nWelcome." });

  // The session works in the web app: the cookie opens the private page there.
  assert.ok(ana.jar.size >= 1, "signed in");
  const web = await ana.get("/w/secret/Plans");
  assert.equal(web.status, 200);
  assert.match(await web.text(), /launch date/);

  const cookie = [...ana.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const headers = { cookie, accept: "application/json, text/event-stream" };
  const json = { ...headers, "content-type": "application/json" };
  const requests: [string, RequestInit, number][] = [
    ["/api/v1/spaces", { headers }, 401],
    ["/api/v1/spaces/secret/pages/Plans", { headers }, 401],
    ["/api/v1/public/wikis", { headers }, 200],
    ["/api/v1/public/wikis/open", { headers }, 200],
    ["/api/v1/no-such-route", { headers }, 404],
    ["/mcp", { method: "POST", headers: json, body: JSON.stringify(MCP_INIT) }, 401],
    ["/mcp/", { headers }, 401],
    ["/mcp/w/secret", { method: "POST", headers: json, body: JSON.stringify(MCP_INIT) }, 404],
    ["/mcp/hub/", { method: "POST", headers: json, body: JSON.stringify(MCP_INIT) }, 200],
    ["/mcp/no-such-route", { headers }, 404],
  ];
  for (const [path, init, status] of requests) {
    const res = await app.request(path, init);
    const body = await res.text();
    assert.equal(res.status, status, `${path}: ${body.slice(0, 300)}`);
    assert.deepEqual(res.headers.getSetCookie(), [], `${path} sets no cookie`);
    assert.doesNotMatch(body, /launch date/, `${path} reveals nothing of the private space`);
    // The web middleware never ran: no CSRF token, no page CSP, no session in the answer.
    assert.notEqual(res.headers.get("cache-control"), "no-store", `${path} has no page headers`);
    assert.doesNotMatch(body, /_csrf|ana@example\.com/, `${path} knows no session`);
  }

  // Without any cookie a web page sets the CSRF cookie, so the absence above is meaningful.
  const fresh = await app.request("/signin");
  assert.ok(fresh.headers.getSetCookie().length > 0, "web pages set a CSRF cookie");
  await fresh.body?.cancel();
  const api = await app.request("/api/v1/public/wikis");
  assert.deepEqual(api.headers.getSetCookie(), [], "the API sets none, with or without one");
  await api.body?.cancel();
});

Deno.test("the not-found page links the pages its message points to", async () => {
  await using db = await freshDb();
  const { app } = spaceApp(db);
  // Signed out, a missing wiki and a private one get one answer: sign in (issue 26.9).
  const visitor = await app.request("/w/no-such-space");
  assert.equal(visitor.status, 404);
  const page = await visitor.text();
  assert.match(page, /was not found, or it is private: sign in to see it if it is yours/);
  assert.match(page, /href="\/signin\?next=%2Fw%2Fno-such-space"|href="\/signin/);
  const ana = await person(app, db, "ana@example.com", "Ana");
  const signedIn = await ana.get("/w/no-such-space");
  assert.equal(signedIn.status, 404);
  assert.match(await signedIn.text(), /<a href="\/llms\.txt">\/llms\.txt<\/a>/);
});

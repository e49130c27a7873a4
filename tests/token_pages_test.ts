import assert from "node:assert/strict";
import { freshDb } from "./helpers.ts";
import { BASE, oauthApp, signedIn } from "./oauth_helpers.ts";

Deno.test("the web app makes tokens, shows each once, lists them and revokes them at once", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser } = await signedIn(app, db, "ana@example.com", ["ana-notes"]);
  const page = await browser.get("/account/tokens");
  assert.equal(page.status, 200);
  const made = await browser.post("/account/tokens", {
    _csrf: await browser.token("/account/tokens"),
    name: "Cursor on my laptop",
    space: "",
    expires_days: "30",
  });
  const html = await made.text();
  const token = /<code id="new-token">(wk_acct_[\w-]+)<\/code>/.exec(html)?.[1];
  assert.ok(token, "the new token is shown");
  const api = (t: string) =>
    app.request(`${BASE}/api/v1/spaces`, { headers: { Authorization: `Bearer ${t}` } });
  assert.equal((await api(token!)).status, 200);
  const listed = await (await browser.get("/account/tokens")).text();
  assert.ok(!listed.includes(token!), "never shown again");
  assert.match(listed, /Cursor on my laptop/);
  assert.match(listed, new RegExp(token!.slice(0, 12)));
  const space = await browser.post("/account/tokens", {
    _csrf: await browser.token("/account/tokens"),
    name: "bot",
    space: "ana-notes",
    expires_days: "",
  });
  assert.match(await space.text(), /wk_space_/);
  const id = /action="\/account\/tokens\/(tok_\w+)\/revoke"/.exec(listed)![1]!;
  const noCsrf = await browser.post(`/account/tokens/${id}/revoke`, {});
  assert.equal(noCsrf.status, 403);
  assert.equal((await api(token!)).status, 200);
  const revoked = await browser.post(`/account/tokens/${id}/revoke`, {
    _csrf: await browser.token("/account/tokens"),
  });
  assert.equal(revoked.status, 303);
  assert.equal((await api(token!)).status, 401);
  const bad = await browser.post("/account/tokens", {
    _csrf: await browser.token("/account/tokens"),
    name: "x",
    space: "someone-elses",
    expires_days: "",
  });
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /not one of this account/);
});

Deno.test("the token pages want a signed-in account", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const res = await app.request(`${BASE}/account/tokens`);
  assert.equal(res.status, 303);
  assert.match(res.headers.get("location")!, /^\/signin\?next=/);
});

Deno.test("right after a token is made, each client's snippet holds it, pointed at /mcp/, and a space token's names its space", async () => {
  await using db = await freshDb();
  const { app } = oauthApp(db);
  const { browser } = await signedIn(app, db, "ana@example.com", ["ana-notes"]);
  const made = await (await browser.post("/account/tokens", {
    _csrf: await browser.token("/account/tokens"),
    name: "Claude Code",
    space: "",
  })).text();
  const token = /<code id="new-token">(wk_acct_[\w-]+)<\/code>/.exec(made)![1]!;
  const claude = /<code id="token-claude-code">([^<]+)<\/code>/.exec(made)?.[1];
  assert.equal(
    claude?.replace(/&quot;/g, '"'),
    `claude mcp add --transport http wiki ${BASE}/mcp/ \\\n  --header "Authorization: Bearer ${token}"`,
  );
  assert.match(made, new RegExp(`<code id="token-cursor">[^<]*Bearer ${token}`));
  assert.doesNotMatch(made, /&lt;YOUR_TOKEN&gt;/, "no placeholder left to edit by hand");
  assert.match(made, /data-check-token/);
  const listed = await (await browser.get("/account/tokens")).text();
  assert.doesNotMatch(listed, new RegExp(token), "the snippets are shown once, with the token");

  const space = await (await browser.post("/account/tokens", {
    _csrf: await browser.token("/account/tokens"),
    name: "bot",
    space: "ana-notes",
  })).text();
  const spaceToken = /<code id="new-token">(wk_space_[\w-]+)<\/code>/.exec(space)![1]!;
  assert.match(
    space,
    new RegExp(`claude mcp add --transport http wiki-ana-notes ${BASE}/mcp/ [^<]*${spaceToken}`),
  );
});

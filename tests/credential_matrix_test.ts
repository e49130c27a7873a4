import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken, revokeToken } from "../src/auth/tokens.ts";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb } from "./helpers.ts";
import { BASE, grantTokens, oauthApp, signedIn } from "./oauth_helpers.ts";

const SECRET = "Launch code is PELICAN-7";

Deno.test("credential matrix: every endpoint × every credential, and no private byte without a grant", async () => {
  await using db = await freshDb();
  const { app, deps } = oauthApp(db);
  const { browser, accountId: ana } = await signedIn(app, db, "ana@example.com", [
    "ana-notes",
    "ana-lab",
  ]);
  const by = { source: "test" };
  await writePage(deps, { wikiId: "ana-notes", path: "Plan", markdown: `# Plan\n${SECRET}.` }, by);
  await writePage(deps, {
    wikiId: "ana-lab",
    path: "Lab",
    markdown: "# Lab\nCentrifuge at four degrees.",
  }, by);
  await createWiki(db, { id: "garden", visibility: "public" });
  await writePage(
    deps,
    { wikiId: "garden", path: "Compost", markdown: "# Compost\nTurn weekly." },
    by,
  );
  const bo = await createAccount(db, { email: "bo@example.com" });

  const revoked = await createToken(db, { accountId: ana, kind: "account", name: "revoked" });
  await revokeToken(db, ana, revoked.record.id);
  const expired = await createToken(db, {
    accountId: ana,
    kind: "account",
    name: "old",
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  await db`UPDATE tokens SET expires_at = now() - interval '1 second' WHERE id = ${expired.record.id}`;
  const credentials: Record<string, string | null> = {
    "none": null,
    "malformed": "Bearer",
    "unknown": "Bearer wk_acct_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "revoked": `Bearer ${revoked.token}`,
    "expired": `Bearer ${expired.token}`,
    "account token": `Bearer ${
      (await createToken(db, { accountId: ana, kind: "account", name: "a" })).token
    }`,
    "space token of this space": `Bearer ${
      (await createToken(db, { accountId: ana, kind: "space", spaceId: "ana-notes", name: "s" }))
        .token
    }`,
    "space token of another space": `Bearer ${
      (await createToken(db, { accountId: ana, kind: "space", spaceId: "ana-lab", name: "l" }))
        .token
    }`,
    "OAuth with the space": `Bearer ${
      (await grantTokens(app, browser, ["ana-notes"])).tokens.access_token
    }`,
    "OAuth without the space": `Bearer ${
      (await grantTokens(app, browser, ["ana-lab"])).tokens.access_token
    }`,
    "another account's token": `Bearer ${
      (await createToken(db, { accountId: bo.id, kind: "account", name: "b" })).token
    }`,
  };

  const call = async (path: string, auth: string | null, args: Record<string, unknown>) => {
    const res = await app.request(`${BASE}${path}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        ...(auth ? { Authorization: auth } : {}),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "get_page", arguments: args },
      }),
    });
    const text = await res.text();
    const outcome = res.status !== 200
      ? String(res.status)
      : JSON.parse(text).result?.isError
      ? "refused"
      : "ok";
    return { outcome, text };
  };
  const get = async (path: string, auth: string | null) => {
    const res = await app.request(`${BASE}${path}`, {
      headers: auth ? { Authorization: auth } : {},
    });
    return { outcome: String(res.status), text: await res.text() };
  };

  // What each credential must get: [private MCP, REST space page, REST space list].
  const expected: Record<string, [string, string, string]> = {
    "none": ["401", "401", "401"],
    "malformed": ["401", "401", "401"],
    "unknown": ["401", "401", "401"],
    "revoked": ["401", "401", "401"],
    "expired": ["401", "401", "401"],
    "account token": ["ok", "200", "200"],
    "space token of this space": ["ok", "403", "403"],
    "space token of another space": ["refused", "403", "403"],
    "OAuth with the space": ["ok", "403", "403"],
    "OAuth without the space": ["refused", "403", "403"],
    "another account's token": ["refused", "404", "200"],
  };
  const failures: string[] = [];
  for (const [name, auth] of Object.entries(credentials)) {
    const results = {
      private: await call("/mcp/", auth, { space: "ana-notes", page: "Plan" }),
      restPage: await get("/api/v1/spaces/ana-notes/pages/Plan", auth),
      restList: await get("/api/v1/spaces", auth),
      hub: await call("/mcp/hub/", auth, { wiki: "ana-notes", page: "Plan" }),
      hubPublic: await call("/mcp/hub/", auth, { wiki: "garden", page: "Compost" }),
      wiki: await call("/mcp/w/ana-notes/", auth, { page: "Plan" }),
      wikiPublic: await call("/mcp/w/garden/", auth, { page: "Compost" }),
      publicRest: await get("/api/v1/public/wikis/ana-notes/pages/Plan", auth),
      publicList: await get("/api/v1/public/wikis", auth),
    };
    const want = expected[name]!;
    const got = [results.private.outcome, results.restPage.outcome, results.restList.outcome];
    if (got.join() !== want.join()) {
      failures.push(`${name}: got ${got.join("/")}, want ${want.join("/")}`);
    }
    // The public endpoints never answer 401 and never open a private wiki, whatever the credential.
    const publicOutcomes = [
      results.hub.outcome,
      results.hubPublic.outcome,
      results.wiki.outcome,
      results.wikiPublic.outcome,
      results.publicRest.outcome,
      results.publicList.outcome,
    ];
    if (publicOutcomes.join() !== "refused,ok,404,ok,404,200") {
      failures.push(`${name}: public endpoints gave ${publicOutcomes}`);
    }
    const granted = want[0] === "ok";
    for (const [where, r] of Object.entries(results)) {
      const leaks = r.text.includes("PELICAN");
      const allowed = (where === "private" && granted) ||
        (where === "restPage" && want[1] === "200");
      if (leaks && !allowed) failures.push(`${name}: the private page leaked through ${where}`);
    }
  }
  assert.deepEqual(failures, []);
});

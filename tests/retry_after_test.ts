import assert from "node:assert/strict";
import { createToken } from "../src/auth/tokens.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { browser } from "./browser.ts";
import { freshDb, testApp } from "./helpers.ts";
import { mcpClient } from "./mcp_helpers.ts";
import { person, seedPages, spaceApp } from "./space_helpers.ts";

// Issue 26.11 and 26.5: every 429 says when to retry, in `Retry-After` and in a `RateLimit`
// header that agrees with it; budgets are per account, whatever credential spends them.

/** The `t` (seconds to reset) and `r` (remaining) of a `RateLimit` header. */
function rateLimitOf(res: Response): { r: number; t: number } {
  const header = res.headers.get("ratelimit") ?? "";
  const m = /;r=(\d+);t=(\d+)/.exec(header);
  assert.ok(m, `RateLimit header "${header}"`);
  return { r: Number(m[1]), t: Number(m[2]) };
}

/** Asserts the 429 carries `Retry-After` and a `RateLimit` header that agrees with it. */
export function assertRetryHeaders(res: Response): void {
  assert.equal(res.status, 429);
  const retry = Number(res.headers.get("retry-after"));
  assert.ok(
    Number.isInteger(retry) && retry >= 1,
    `Retry-After "${res.headers.get("retry-after")}"`,
  );
  assert.deepEqual(rateLimitOf(res), { r: 0, t: retry }, "RateLimit agrees with Retry-After");
}

const report = (note: string) => JSON.stringify({ page: "Compost", kind: "unclear", note });

Deno.test("the public reports route answers its 429 with Retry-After and a RateLimit that agrees", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  await createWiki(db, { id: "garden", visibility: "public" });
  await seedPages(deps, "garden", { Compost: "# Compost\n\nGreens and browns." });
  const post = (note: string) =>
    app.request("/api/v1/public/wikis/garden/reports", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: report(note),
    });
  for (let i = 0; i < 10; i++) assert.equal((await post(`r${i}`)).status, 201);
  const refused = await post("one too many");
  assertRetryHeaders(refused);
  const problem = await refused.json();
  assert.equal(problem.code, "rate_limited");
  assert.equal(problem.retry_after, Number(refused.headers.get("retry-after")));
  assert.match(problem.detail, /try again in \d+ s$/);
  assert.ok(problem.retry_after > 3000, "the report budget's hour, not the request minute");
});

Deno.test("MCP report_problem over budget says when to retry, in _meta and in words", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  await createWiki(db, { id: "garden", visibility: "public" });
  await seedPages(deps, "garden", { Compost: "# Compost\n\nGreens and browns." });
  const client = await mcpClient(app, "/mcp/w/garden/");
  const args = { page: "Compost", kind: "unclear", note: "x" };
  for (let i = 0; i < 10; i++) {
    assert.notEqual(
      (await client.callTool({ name: "report_problem", arguments: args })).isError,
      true,
    );
  }
  const refused = await client.callTool({ name: "report_problem", arguments: args });
  assert.equal(refused.isError, true);
  const meta = refused._meta as { code: string; retry_after: number };
  assert.equal(meta.code, "rate_limited");
  assert.ok(meta.retry_after > 3000);
  const text = (refused.content as { text: string }[])[0]!.text;
  assert.match(text, new RegExp(`try again in ${meta.retry_after} s`));
});

Deno.test("reports from several space tokens of one account into another's wiki share one budget", async () => {
  await using db = await freshDb();
  const { app, deps } = spaceApp(db);
  const ana = await person(app, db, "ana@example.com", "Ana");
  await createWiki(db, { id: "garden", visibility: "public" });
  await seedPages(deps, "garden", { Compost: "# Compost\n\nGreens and browns." });
  await createWiki(db, { id: "ana-notes", ownerAccountId: ana.id });
  const tokens = [];
  for (const name of ["one", "two", "three"]) {
    tokens.push(
      (await createToken(db, { accountId: ana.id, kind: "space", spaceId: "ana-notes", name }))
        .token,
    );
  }
  let accepted = 0;
  for (const token of tokens) {
    const client = await mcpClient(app, "/mcp/hub/", token);
    for (let i = 0; i < 10; i++) {
      const result = await client.callTool({
        name: "report_problem",
        arguments: { wiki: "garden", page: "Compost", kind: "unclear", note: `n${i}` },
      });
      if (!result.isError) accepted++;
    }
  }
  assert.equal(accepted, 10, "ten reports an hour from the account, not ten per token");
  const [row] = await db<{ n: number }>`SELECT count(*)::int AS n FROM page_reports`;
  assert.equal(row!.n, 10);
});

Deno.test("sign-up, sign-in and space creation 429s carry Retry-After and a RateLimit that agrees", async () => {
  await using db = await freshDb();
  const { app } = testApp(db, { RATE_LIMIT_SIGNUPS_PER_HOUR: "1" });
  const b = browser(app, "192.0.2.60");
  const signUp = async (email: string, from = browser(app, "192.0.2.60")) =>
    await from.post("/signup", {
      _csrf: await from.token("/signup"),
      email,
      name: "Someone",
      password: "a long enough password",
    });
  assert.equal((await signUp("a@example.com", b)).status, 303);
  const refusedSignUp = await signUp("b@example.com");
  assertRetryHeaders(refusedSignUp);
  await refusedSignUp.body?.cancel();

  const guesser = browser(app, "192.0.2.61");
  let refusedSignIn: Response | null = null;
  for (let i = 0; i < 12 && !refusedSignIn; i++) {
    const res = await guesser.post("/signin", {
      _csrf: await guesser.token("/signin"),
      email: "a@example.com",
      password: `wrong ${i}`,
    });
    if (res.status === 429) refusedSignIn = res;
    else await res.body?.cancel();
  }
  assert.ok(refusedSignIn, "the sign-in limit is reached");
  assertRetryHeaders(refusedSignIn);
  await refusedSignIn.body?.cancel();

  const csrf = await b.token("/account");
  let refusedCreate: Response | null = null;
  for (let i = 0; i < 40 && !refusedCreate; i++) {
    const res = await b.post("/spaces", {
      _csrf: csrf,
      id: "same-id",
      title: "T",
      visibility: "private",
      owner: "me",
    });
    if (res.status === 429) refusedCreate = res;
    else await res.body?.cancel();
  }
  assert.ok(refusedCreate, "the space-creation limit is reached");
  assertRetryHeaders(refusedCreate);
  await refusedCreate.body?.cancel();
});

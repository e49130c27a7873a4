import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import type { AppError } from "../src/errors.ts";
import { recordPageUse } from "../src/pages/record_page_use.ts";
import { writePage } from "../src/pages/write_page.ts";
import { selectTeamsOf } from "../src/teams/store.ts";
import { createTeam, setMemberRole } from "../src/teams/teams.ts";
import { selectSpacesOf } from "../src/access/store.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testDeps } from "./helpers.ts";

Deno.test("an account's spaces are its own wikis and its teams' wikis, with its role", async () => {
  await using db = await freshDb();
  const ana = await createAccount(db, { email: "ana@example.com" });
  const bo = await createAccount(db, { email: "bo@example.com" });
  await createTeam(db, { id: "research", ownerAccountId: ana.id });
  await setMemberRole(db, "research", bo.id, "member");
  await createWiki(db, { id: "ana-notes", ownerAccountId: ana.id });
  await createWiki(db, { id: "lab", ownerTeamId: "research" });
  await createWiki(db, { id: "elsewhere", visibility: "public" });
  const spaces = async (id: string) => (await selectSpacesOf(db, id)).map((s) => [s.id, s.role]);
  assert.deepEqual(await spaces(ana.id), [["ana-notes", "owner"], ["lab", "owner"]]);
  assert.deepEqual(await spaces(bo.id), [["lab", "member"]]);
  assert.deepEqual((await selectTeamsOf(db, bo.id)).map((t) => [t.id, t.role]), [[
    "research",
    "member",
  ]]);
});

Deno.test("emails are unique in any case, and malformed ones are refused", async () => {
  await using db = await freshDb();
  await createAccount(db, { email: "Ana@Example.com" });
  await assert.rejects(
    createAccount(db, { email: "ana@example.COM" }),
    (e: AppError) => e.code === "account_exists",
  );
  await assert.rejects(
    createAccount(db, { email: "not-an-email" }),
    (e: AppError) => e.code === "bad_request",
  );
});

Deno.test("a team never loses its last owner", async () => {
  await using db = await freshDb();
  const ana = await createAccount(db, { email: "ana@example.com" });
  const bo = await createAccount(db, { email: "bo@example.com" });
  await createTeam(db, { id: "t", ownerAccountId: ana.id });
  await assert.rejects(
    setMemberRole(db, "t", ana.id, "member"),
    (e: AppError) => e.code === "forbidden",
  );
  await assert.rejects(
    setMemberRole(db, "t", ana.id, null),
    (e: AppError) => e.code === "forbidden",
  );
  await setMemberRole(db, "t", bo.id, "owner");
  await setMemberRole(db, "t", ana.id, null);
  assert.deepEqual(await selectTeamsOf(db, ana.id), []);
  await assert.rejects(
    createTeam(db, { id: "t", ownerAccountId: bo.id }),
    (e: AppError) => e.code === "team_exists",
  );
});

Deno.test("a page use is recorded at the revision read, and a revision never written is refused", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "w" });
  await writePage(testDeps(db), { wikiId: "w", path: "Page", markdown: "one" }, { source: "t" });
  await writePage(testDeps(db), { wikiId: "w", path: "Page", markdown: "two" }, { source: "t" });
  const first = await recordPageUse(db, { wikiId: "w", page: "page", revision: 1, query: "q" }, {
    clientName: "test",
  });
  assert.deepEqual(first, { recorded: true, page: "Page", revision: 1, uses: 1 });
  assert.equal((await recordPageUse(db, { wikiId: "w", page: "Page" }, {})).revision, 2);
  await assert.rejects(
    recordPageUse(db, { wikiId: "w", page: "Page", revision: 3 }, {}),
    /revisions 1 to 2/,
  );
});

Deno.test("tokens are shown once, stored as hashes, and name their kind", async () => {
  await using db = await freshDb();
  const ana = await createAccount(db, { email: "ana@example.com" });
  await createWiki(db, { id: "mine", ownerAccountId: ana.id });
  const account = await createToken(db, { accountId: ana.id, kind: "account", name: "laptop" });
  const space = await createToken(db, {
    accountId: ana.id,
    kind: "space",
    spaceId: "mine",
    name: "bot",
  });
  assert.match(account.token, /^wk_acct_[A-Za-z0-9_-]{43}$/);
  assert.match(space.token, /^wk_space_[A-Za-z0-9_-]{43}$/);
  const stored = await db<Record<string, unknown>>`SELECT * FROM tokens`;
  assert.ok(!JSON.stringify(stored).includes(account.token.slice(8)), "no secret stored in clear");
  await assert.rejects(
    createToken(db, { accountId: ana.id, kind: "space", spaceId: "not-mine", name: "x" }),
    (e: AppError) => e.code === "wiki_not_found",
  );
  await assert.rejects(createToken(db, { accountId: ana.id, kind: "account", name: " " }), /name/);
});

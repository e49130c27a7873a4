import assert from "node:assert/strict";
import { freshDb, testDeps } from "../../tests/helpers.ts";
import { createAccount } from "../accounts/accounts.ts";
import { AppError } from "../errors.ts";
import { createTeam, setMemberRole } from "../teams/teams.ts";
import { createWiki } from "../wikis/wikis.ts";
import {
  ANONYMOUS,
  authorize,
  type Caller,
  chooseSpace,
  type Need,
  reachableSpaces,
  type Surface,
} from "./access_policy.ts";

/**
 * Ana's world: her own private space, a team space where she is a plain member, Olga's
 * private space, Olga's public wiki, and an id nobody has.
 */
async function world() {
  const db = await freshDb();
  const deps = testDeps(db);
  const ana = await createAccount(db, { email: "ana@example.com", name: "Ana" });
  const olga = await createAccount(db, { email: "olga@example.com", name: "Olga" });
  await createTeam(db, { id: "lab", ownerAccountId: olga.id });
  await setMemberRole(db, "lab", ana.id, "member");
  await createWiki(db, { id: "ana-notes", ownerAccountId: ana.id });
  await createWiki(db, { id: "lab-notes", ownerTeamId: "lab" });
  await createWiki(db, { id: "olga-secret", ownerAccountId: olga.id });
  await createWiki(db, { id: "garden", visibility: "public", ownerAccountId: olga.id });
  const callers: Record<string, { caller: Caller; surface: Surface }> = {
    anonymous: { caller: ANONYMOUS, surface: "web" },
    session: { caller: { kind: "session", accountId: ana.id }, surface: "web" },
    account_token: {
      caller: { kind: "account_token", id: "tok_a", accountId: ana.id },
      surface: "rest",
    },
    space_token: {
      caller: { kind: "space_token", id: "tok_s", accountId: ana.id, spaceId: "ana-notes" },
      surface: "mcp",
    },
    oauth: {
      caller: {
        kind: "oauth",
        id: "grant_1",
        accountId: ana.id,
        clientId: "c",
        clientName: "An app",
        spaceIds: ["lab-notes"],
      },
      surface: "mcp",
    },
  };
  return { db, deps, ana, olga, callers };
}

/** What `authorize` answered: `ok:<role>` or the error's code. */
async function outcome(
  deps: ReturnType<typeof testDeps>,
  who: { caller: Caller; surface: Surface },
  wikiId: string,
  need: Need,
): Promise<string> {
  try {
    const { wiki, role } = await authorize(deps, who.caller, wikiId, need, who.surface);
    assert.equal(wiki.id, wikiId);
    return `ok:${role ?? "visitor"}`;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

const NF = "wiki_not_found";
const NO = "forbidden";

/**
 * caller → wiki → [read, member, write, admin]. Visitors read public wikis; credentials reach
 * their spaces only; a space token opens its one space; an OAuth grant the spaces granted; a
 * private wiki out of reach answers exactly as an unknown id.
 */
const EXPECTED: Record<string, Record<string, [string, string, string, string]>> = {
  anonymous: {
    "garden": ["ok:visitor", "unauthorized", "unauthorized", "unauthorized"],
    "ana-notes": [NF, NF, NF, NF],
    "lab-notes": [NF, NF, NF, NF],
    "olga-secret": [NF, NF, NF, NF],
    "nowhere": [NF, NF, NF, NF],
  },
  session: {
    "garden": ["ok:visitor", NO, NO, NO],
    "ana-notes": ["ok:owner", "ok:owner", "ok:owner", "ok:owner"],
    "lab-notes": ["ok:member", "ok:member", "ok:member", NO],
    "olga-secret": [NF, NF, NF, NF],
    "nowhere": [NF, NF, NF, NF],
  },
  account_token: {
    "garden": [NF, NF, NF, NF],
    "ana-notes": ["ok:owner", "ok:owner", "ok:owner", "ok:owner"],
    "lab-notes": ["ok:member", "ok:member", "ok:member", NO],
    "olga-secret": [NF, NF, NF, NF],
    "nowhere": [NF, NF, NF, NF],
  },
  space_token: {
    "garden": [NO, NO, NO, NO],
    "ana-notes": ["ok:owner", "ok:owner", "ok:owner", "ok:owner"],
    "lab-notes": [NO, NO, NO, NO],
    "olga-secret": [NO, NO, NO, NO],
    "nowhere": [NO, NO, NO, NO],
  },
  oauth: {
    "garden": [NF, NF, NF, NF],
    "ana-notes": [NF, NF, NF, NF],
    "lab-notes": ["ok:member", "ok:member", "ok:member", NO],
    "olga-secret": [NF, NF, NF, NF],
    "nowhere": [NF, NF, NF, NF],
  },
};

const NEEDS: Need[] = ["read", "member", "write", "admin"];

Deno.test("authorize answers every caller, wiki and need as the table says", async () => {
  const { db, deps, callers } = await world();
  await using _ = db;
  const got: typeof EXPECTED = {};
  for (const [name, who] of Object.entries(callers)) {
    got[name] = {};
    for (const wikiId of Object.keys(EXPECTED[name]!)) {
      const row = await Promise.all(NEEDS.map((need) => outcome(deps, who, wikiId, need)));
      got[name]![wikiId] = row as [string, string, string, string];
    }
  }
  assert.deepEqual(got, EXPECTED);
});

Deno.test("a private wiki out of reach reads exactly as an id that does not exist", async () => {
  const { db, deps, callers } = await world();
  await using _ = db;
  for (const [name, who] of Object.entries(callers)) {
    if (who.caller.kind === "space_token") continue;
    const detail = async (id: string) => {
      const error = await authorize(deps, who.caller, id, "read", who.surface).catch((e) => e);
      assert.ok(error instanceof AppError, `${name} ${id}`);
      return { code: error.code, status: error.status, detail: error.detail.replaceAll(id, "X") };
    };
    assert.deepEqual(await detail("olga-secret"), await detail("olga-secrex"), name);
  }
});

Deno.test("not-found suggests close ids among what the caller reaches, in the surface's words", async () => {
  const { db, deps, olga, callers } = await world();
  await using _ = db;
  const detail = (caller: Caller, id: string, surface: Surface) =>
    authorize(deps, caller, id, "read", surface).then(
      () => assert.fail("should be refused"),
      (e: AppError) => e.detail,
    );
  assert.equal(
    await detail(ANONYMOUS, "gardn", "mcp"),
    'Public wiki "gardn" not found; did you mean "garden"?',
  );
  assert.equal(
    await detail(ANONYMOUS, "zzz", "rest"),
    'Public wiki "zzz" not found. GET /api/v1/public/wikis lists the ids',
  );
  assert.equal(
    await detail(ANONYMOUS, "zzz", "web"),
    'Wiki "zzz" not found. /llms.txt lists the public wikis',
  );
  // Olga's private space is suggested to Olga, never to Ana or a visitor.
  const olgaWeb: Caller = { kind: "session", accountId: olga.id };
  assert.match(await detail(olgaWeb, "olga-secre", "web"), /did you mean "olga-secret"/);
  assert.doesNotMatch(await detail(callers.session!.caller, "olga-secre", "web"), /olga-secret"/);
  assert.doesNotMatch(await detail(ANONYMOUS, "olga-secre", "mcp"), /olga-secret"/);
  const token = callers.account_token!.caller;
  assert.equal(
    await detail(token, "ana-note", "rest"),
    'Space "ana-note" is not one of your spaces; did you mean "ana-notes"?',
  );
  assert.equal(
    await detail(token, "zzz", "mcp"),
    'Space "zzz" is not one of your spaces. Call my_spaces for the ids',
  );
});

Deno.test("chooseSpace takes the named space, a space token's own, or the only one", async () => {
  const { db, deps, ana, callers } = await world();
  await using _ = db;
  assert.equal(
    await chooseSpace(deps, callers.space_token!.caller as never, undefined),
    "ana-notes",
  );
  assert.equal(await chooseSpace(deps, callers.oauth!.caller as never, undefined), "lab-notes");
  const both = { kind: "account_token" as const, id: "tok_a", accountId: ana.id };
  await assert.rejects(
    chooseSpace(deps, both, undefined),
    /Name a space with "space": one of "ana-notes", "lab-notes"/,
  );
  assert.equal(await chooseSpace(deps, both, "lab-notes"), "lab-notes");
  assert.deepEqual(
    (await reachableSpaces(db, both)).map((s) => [s.id, s.role]),
    [["ana-notes", "owner"], ["lab-notes", "member"]],
  );
  assert.deepEqual(await reachableSpaces(db, ANONYMOUS), []);
});

Deno.test("a space token stops opening its space when its account leaves the team", async () => {
  const { db, deps, ana } = await world();
  await using _ = db;
  const token: Caller = {
    kind: "space_token",
    id: "tok_l",
    accountId: ana.id,
    spaceId: "lab-notes",
  };
  assert.equal((await authorize(deps, token, "lab-notes", "read", "mcp")).role, "member");
  await setMemberRole(db, "lab", ana.id, null);
  await assert.rejects(
    authorize(deps, token, "lab-notes", "read", "mcp"),
    /This token's space is no longer reachable/,
  );
});

/**
 * `deno task admin <command> [flags]`: operator commands for scripts and tests.
 *   create-account --email E [--name N]
 *   create-team --id ID --owner EMAIL [--name N]
 *   create-space --id ID (--owner EMAIL | --team TEAM) [--title T] [--description D] [--visibility private|public]
 *   create-token --email E --name N [--space ID] [--expires-days D]    prints the token once
 *   list-tokens --email E
 *   revoke-token --email E --id TOKEN_ID
 */
import { parseArgs } from "node:util";
import { createAccount } from "../src/accounts/accounts.ts";
import { selectAccountByEmail } from "../src/accounts/store.ts";
import { selectTokensOf } from "../src/auth/store.ts";
import { createToken, revokeToken } from "../src/auth/tokens.ts";
import { loadConfig } from "../src/config/config.ts";
import type { Db } from "../src/db/db.ts";
import { createLog } from "../src/lib/log.ts";
import { openDeps } from "../src/server.ts";
import { createTeam } from "../src/teams/teams.ts";
import { createWiki } from "../src/wikis/wikis.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    email: { type: "string" },
    name: { type: "string" },
    id: { type: "string" },
    owner: { type: "string" },
    team: { type: "string" },
    title: { type: "string" },
    description: { type: "string" },
    visibility: { type: "string" },
    space: { type: "string" },
    "expires-days": { type: "string" },
  },
});

function need(flag: keyof typeof values): string {
  const value = values[flag];
  if (typeof value !== "string" || !value) throw new Error(`--${flag} is required`);
  return value;
}

async function accountId(db: Db, email: string): Promise<string> {
  const account = await selectAccountByEmail(db, email);
  if (!account) throw new Error(`No account with email "${email}"`);
  return account.id;
}

const commands: Record<string, (db: Db) => Promise<string>> = {
  "create-account": async (db) =>
    (await createAccount(db, { email: need("email"), name: values.name })).id,
  "create-team": async (db) =>
    (await createTeam(db, {
      id: need("id"),
      name: values.name,
      ownerAccountId: await accountId(db, need("owner")),
    })).id,
  "create-space": async (db) => {
    const visibility = values.visibility ?? "private";
    if (visibility !== "private" && visibility !== "public") {
      throw new Error("--visibility is private or public");
    }
    const wiki = await createWiki(db, {
      id: need("id"),
      title: values.title,
      description: values.description,
      visibility,
      ownerAccountId: values.owner ? await accountId(db, values.owner) : null,
      ownerTeamId: values.team ?? null,
    });
    return wiki.id;
  },
  "create-token": async (db) => {
    const days = values["expires-days"] ? Number(values["expires-days"]) : null;
    if (days !== null && !(days > 0)) throw new Error("--expires-days must be a positive number");
    const made = await createToken(db, {
      accountId: await accountId(db, need("email")),
      kind: values.space ? "space" : "account",
      spaceId: values.space,
      name: need("name"),
      expiresAt: days ? new Date(Date.now() + days * 86_400_000) : null,
    });
    return made.token;
  },
  "list-tokens": async (db) =>
    (await selectTokensOf(db, await accountId(db, need("email")))).map((t) =>
      [t.id, t.kind, t.wiki_id ?? "-", t.name, `${t.hint}…`, t.revoked_at ? "revoked" : "live"]
        .join("\t")
    ).join("\n"),
  "revoke-token": async (db) => {
    await revokeToken(db, await accountId(db, need("email")), need("id"));
    return "revoked";
  },
};

const command = commands[positionals[0] ?? ""];
if (!command) {
  console.error(`usage: deno task admin <${Object.keys(commands).join("|")}> [flags]`);
  Deno.exit(2);
}
try {
  const deps = await openDeps(loadConfig(Deno.env.toObject()), createLog("error"));
  try {
    console.log(await command(deps.db));
  } finally {
    await deps.db.close();
  }
} catch (error) {
  console.error(`admin: ${error instanceof Error ? error.message : String(error)}`);
  Deno.exit(1);
}

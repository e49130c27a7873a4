/**
 * `deno task admin <command> [flags]`: operator commands for scripts and tests.
 *   create-account --email E [--name N]
 *   create-team --id ID --owner EMAIL [--name N]
 *   create-space --id ID (--owner EMAIL | --team TEAM) [--title T] [--description D] [--visibility private|public]
 *   create-token --email E --name N [--space ID] [--expires-days D] [--scope read|read_propose]
 *                                                      prints the token once
 *   list-tokens --email E
 *   revoke-token --email E --id TOKEN_ID
 *   remove-member TEAM EMAIL    removes a member at once (never a team's last owner)
 *   set-password EMAIL          reads the new password from the first line of stdin
 *   versions SPACE              lists the space's versions and its default
 *   publish-version SPACE NAME [--default]    publishes the live pages as version NAME
 *   rename-version SPACE FROM TO
 *   delete-version SPACE NAME   (the default version is refused)
 *   default-version SPACE NAME  NAME or "latest" (the live pages)
 *   version-pattern SPACE PATTERN    the Git refs a sync publishes, e.g. "v*"; "none" for none
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
import { setPassword } from "../src/sessions/change_password.ts";
import { selectMembers } from "../src/teams/store.ts";
import { createTeam, setMemberRole } from "../src/teams/teams.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { versionCommands } from "../src/versions/version_admin.ts";

/** Where the admin commands read input: `set-password`'s password, from stdin by default. */
export type AdminIo = { readPassword: () => Promise<string> };

/**
 * Runs one admin command (`args` as on the command line) and returns what it prints. Errors
 * are thrown; the command line prints them and exits 1.
 */
export async function runAdmin(
  db: Db,
  args: string[],
  io: AdminIo = { readPassword: readFirstLine },
): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      id: { type: "string" },
      owner: { type: "string" },
      team: { type: "string" },
      scope: { type: "string" },
      title: { type: "string" },
      description: { type: "string" },
      visibility: { type: "string" },
      space: { type: "string" },
      "expires-days": { type: "string" },
      default: { type: "boolean" },
    },
  });

  const need = (flag: keyof typeof values): string => {
    const value = values[flag];
    if (typeof value !== "string" || !value) throw new Error(`--${flag} is required`);
    return value;
  };

  /** The positional arguments after the command's name, all required. */
  const operands = (...names: string[]): string[] => {
    const given = positionals.slice(1, names.length + 1);
    if (given.length < names.length || given.some((v) => !v)) {
      throw new Error(`usage: deno task admin ${positionals[0]} ${names.join(" ")}`);
    }
    return given;
  };

  const commands: Record<string, () => Promise<string>> = {
    "create-account": async () =>
      (await createAccount(db, { email: need("email"), name: values.name })).id,
    "create-team": async () =>
      (await createTeam(db, {
        id: need("id"),
        name: values.name,
        ownerAccountId: await accountId(db, need("owner")),
      })).id,
    "create-space": async () => {
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
    "create-token": async () => {
      const days = values["expires-days"] ? Number(values["expires-days"]) : null;
      if (days !== null && !(days > 0)) throw new Error("--expires-days must be a positive number");
      const scope = values.scope ?? "read";
      if (scope !== "read" && scope !== "read_propose") {
        throw new Error("--scope is read or read_propose");
      }
      const made = await createToken(db, {
        accountId: await accountId(db, need("email")),
        kind: values.space ? "space" : "account",
        spaceId: values.space,
        scope,
        name: need("name"),
        expiresAt: days ? new Date(Date.now() + days * 86_400_000) : null,
      });
      return made.token;
    },
    "list-tokens": async () =>
      (await selectTokensOf(db, await accountId(db, need("email")))).map((t) =>
        [
          t.id,
          t.kind,
          t.wiki_id ?? "-",
          t.name,
          `${t.hint}…`,
          t.scope,
          t.revoked_at ? "revoked" : "live",
        ]
          .join("\t")
      ).join("\n"),
    "revoke-token": async () => {
      await revokeToken(db, await accountId(db, need("email")), need("id"));
      return "revoked";
    },
    "remove-member": async () => {
      const [team, email] = operands("TEAM", "EMAIL") as [string, string];
      const id = await accountId(db, email);
      if (!(await selectMembers(db, team)).some((m) => m.account_id === id)) {
        throw new Error(`"${email}" is not a member of team "${team}"`);
      }
      await setMemberRole(db, team, id, null);
      return `removed ${email} from ${team}`;
    },
    "set-password": async () => {
      const [email] = operands("EMAIL") as [string];
      const id = await accountId(db, email);
      await setPassword(db, id, await io.readPassword());
      return `password set for ${email}; its sessions are signed out`;
    },
    ...versionCommands(db, operands, values.default === true),
  };

  const command = commands[positionals[0] ?? ""];
  if (!command) {
    throw new Error(`usage: deno task admin <${Object.keys(commands).join("|")}> [flags]`);
  }
  return await command();
}

async function accountId(db: Db, email: string): Promise<string> {
  const account = await selectAccountByEmail(db, email);
  if (!account) throw new Error(`No account with email "${email}"`);
  return account.id;
}

/** The first line of stdin: a pipe, or typed (then it shows on screen, so prefer a pipe). */
async function readFirstLine(): Promise<string> {
  if (Deno.stdin.isTerminal()) {
    await Deno.stdout.write(new TextEncoder().encode("New password (shown as typed): "));
  }
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of Deno.stdin.readable) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes("\n")) break;
  }
  return text.split(/\r?\n/)[0] ?? "";
}

if (import.meta.main) {
  try {
    const deps = await openDeps(loadConfig(Deno.env.toObject()), createLog("error"));
    try {
      console.log(await runAdmin(deps.db, Deno.args));
    } finally {
      await deps.db.close();
    }
  } catch (error) {
    console.error(`admin: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
}

import assert from "node:assert/strict";
import type { Hono } from "hono";
import type { Db } from "../src/db/db.ts";
import type { Deps } from "../src/deps.ts";
import { writePage } from "../src/pages/write_page.ts";
import { addTeamMember, createTeam } from "../src/teams/teams.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { browser } from "./browser.ts";
import { testApp } from "./helpers.ts";

/** The whole app with budgets no test reaches (API and web pages alike). */
export function spaceApp(db: Db): { app: Hono; deps: Deps } {
  return testApp(db, { RATE_LIMIT_ANON_PER_MINUTE: "100000", RATE_LIMIT_WEB_PER_MINUTE: "100000" });
}

/** A signed-up person in a browser of their own, with their account id. */
export async function person(app: Hono, db: Db, email: string, name: string) {
  const b = browser(app);
  const res = await b.post("/signup", {
    _csrf: await b.token("/signup"),
    email,
    name,
    password: "a long enough password",
  });
  assert.equal(res.status, 303, `sign-up of ${email}`);
  const [row] = await db<{ id: string }>`SELECT id FROM accounts WHERE email = ${email}`;
  const csrf = await b.token("/account");
  return {
    ...b,
    id: row!.id,
    /** Posts a form as the page's own form would, with the session's CSRF token. */
    submit: (path: string, fields: Record<string, string> = {}) =>
      b.post(path, { _csrf: csrf, ...fields }),
    /** Posts files as the import form does (multipart), with the session's CSRF token. */
    upload: (path: string, files: File[]) => {
      const form = new FormData();
      form.set("_csrf", csrf);
      for (const file of files) form.append("files", file);
      const cookie = [...b.jar].map(([n, v]) => `${n}=${v}`).join("; ");
      return app.request(path, { method: "POST", body: form, headers: { cookie } }, {
        remoteAddr: { hostname: "192.0.2.1", port: 40000, transport: "tcp" },
      });
    },
  };
}

/** A person in the test's browser. */
export type Person = Awaited<ReturnType<typeof person>>;

/** A team wiki whose owner is `owner` and whose other members are `members`. */
export async function teamWiki(
  deps: Deps,
  id: string,
  owner: Person,
  members: { person: Person; email: string }[],
  visibility: "public" | "private" = "private",
) {
  await createTeam(deps.db, { id: `${id}-team`, name: "Team", ownerAccountId: owner.id });
  for (const m of members) {
    await addTeamMember(deps.db, {
      actorId: owner.id,
      teamId: `${id}-team`,
      email: m.email,
      role: "member",
    });
  }
  return await createWiki(deps.db, { id, visibility, ownerTeamId: `${id}-team` });
}

/** Writes pages straight through the feature function (the pages a test starts from). */
export async function seedPages(deps: Deps, wikiId: string, pages: Record<string, string>) {
  for (const [path, markdown] of Object.entries(pages)) {
    await writePage(deps, { wikiId, path, markdown }, { source: "test" });
  }
}

/** The text of a response, checked to be an HTML page with this status. */
export async function html(res: Response, status: number): Promise<string> {
  const body = await res.text();
  assert.equal(res.status, status, body.slice(0, 2000));
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  return body;
}

/** The value of the form field `name` on a page (inputs and textareas). */
export function fieldValue(page: string, name: string): string | null {
  const input = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(page) ??
    new RegExp(`<input[^>]*value="([^"]*)"[^>]*name="${name}"`).exec(page);
  if (input) return unescape(input[1]!);
  const area = new RegExp(`<textarea[^>]*name="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(page);
  return area ? unescape(area[1]!) : null;
}

function unescape(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

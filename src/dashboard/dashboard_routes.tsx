import { reachableSpaces } from "../access/access_policy.ts";
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { Deps } from "../deps.ts";
import { changePassword } from "../sessions/change_password.ts";
import { requireAccount } from "../kit/web/require_account.ts";
import { webErrorHandler } from "../kit/web/web_error_handler.tsx";
import { CREATE_ATTEMPTS, createSpace } from "../wikis/create_space.ts";
import { setBudgetHeaders } from "../http/retry_headers.ts";
import { DashboardPage, SettingsPage } from "./dashboard_page.tsx";
import { updateAccountName } from "../accounts/mod.ts";
import { selectInvitationsFor, selectTeamsOf } from "../teams/mod.ts";

const nameSchema = z.string({ error: "Enter a name" }).trim().min(1, "Enter a name")
  .max(100, "Use at most 100 characters");

/** The signed-in home (`/account`), search across its spaces, creating spaces, and the account's settings. */
export function dashboardRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.get("/account", (c) => renderDashboard(deps, c));
  app.post("/spaces", (c) => postSpace(deps, c));
  app.get("/account/settings", (c) => renderSettings(c, {}));
  app.post("/account/settings/name", async (c) => {
    const account = requireAccount(c);
    const parsed = nameSchema.safeParse((await c.req.parseBody()).name);
    if (!parsed.success) {
      return renderSettings(c, { errors: { name: parsed.error.issues[0]!.message } });
    }
    await updateAccountName(deps.db, account.id, parsed.data);
    c.set("account", { ...account, name: parsed.data });
    return renderSettings(c, { saved: "Your name is saved." });
  });
  app.post("/account/settings/password", (c) => postPassword(deps, c));
  app.onError(webErrorHandler(deps, { signInNext: true }));
  return app;
}

/** The dashboard: the account's spaces, teams and invitations, and the new-space form. */
async function renderDashboard(
  deps: Deps,
  c: Context,
  extra: { errors?: Record<string, string>; values?: Record<string, string> } = {},
  status: 200 | 400 | 409 | 429 = 200,
) {
  const account = requireAccount(c);
  const [spaces, teams, invitations] = await Promise.all([
    reachableSpaces(deps.db, { kind: "session", accountId: account.id }),
    selectTeamsOf(deps.db, account.id),
    selectInvitationsFor(deps.db, account.email),
  ]);
  return c.html(
    <DashboardPage
      account={account}
      csrfToken={c.get("csrfToken")}
      spaces={spaces}
      teams={teams}
      invitations={invitations}
      {...extra}
    />,
    status,
  );
}

/** Creates a space from the dashboard's form; the dashboard again with the errors if not. */
async function postSpace(deps: Deps, c: Context) {
  const account = requireAccount(c);
  const form = await c.req.parseBody();
  const result = await createSpace(deps.db, account.id, form);
  if (!result.ok) {
    const values = Object.fromEntries(
      ["id", "title", "description", "visibility", "owner"].map((k) => [k, text(form[k])]),
    );
    const page = await renderDashboard(deps, c, { errors: result.errors, values }, result.status);
    if (result.status === 429) {
      setBudgetHeaders(page.headers, {
        name: "spaces",
        ...CREATE_ATTEMPTS,
        remaining: 0,
        resetSeconds: result.retryAfter,
      }, true);
    }
    return page;
  }
  deps.log.info("space created", {
    request_id: c.get("requestId"),
    account_id: account.id,
    wiki_id: result.wiki.id,
  });
  return c.redirect(`/w/${result.wiki.id}`, 303);
}

/** The account's settings page (name and password), with a notice or the form's errors. */
function renderSettings(c: Context, extra: { errors?: Record<string, string>; saved?: string }) {
  return c.html(
    <SettingsPage account={requireAccount(c)} csrfToken={c.get("csrfToken")} {...extra} />,
    extra.errors ? 400 : 200,
  );
}

/** Changes the password (and revokes the account's credentials when asked). */
async function postPassword(deps: Deps, c: Context) {
  const account = requireAccount(c);
  const form = await c.req.parseBody();
  const result = await changePassword(deps.db, {
    accountId: account.id,
    sessionToken: c.get("sessionToken")!,
    current: form.current_password,
    next: form.new_password,
    revokeCredentials: form.revoke_credentials === "yes",
  }, deps.config.passwordHash);
  if (!result.ok) return renderSettings(c, { errors: result.errors });
  deps.log.info("password changed", {
    request_id: c.get("requestId"),
    account_id: account.id,
    revoked_tokens: result.revoked.tokens,
    revoked_grants: result.revoked.grants,
  });
  const revoked = form.revoke_credentials === "yes"
    ? ` ${result.revoked.tokens} tokens and ${result.revoked.grants} connected apps are revoked.`
    : "";
  return renderSettings(c, {
    saved: `Your password is changed. Your other sessions are signed out.${revoked}`,
  });
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

import { reachableSpaces } from "../access/access_policy.ts";
import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { ErrorPage } from "../kit/web/error_page.tsx";
import { webErrorHandler } from "../kit/web/web_error_handler.tsx";
import { requireAccount } from "../kit/web/require_account.ts";
import { ConnectedAppsPage } from "./apps_page.tsx";
import {
  type AuthorizationCheck,
  authorizationRedirect,
  checkAuthorizationRequest,
  issueCode,
} from "./authorize.ts";
import type { DocumentFetcher } from "../http/pinned_fetch.ts";
import { ConsentPage } from "./consent_page.tsx";
import { consentedScope } from "./scopes.ts";
import { revokeAccountGrant, selectLiveGrantsOf } from "./mod.ts";

/**
 * The browser side of the authorization server: `/authorize` (sign-in through the web
 * session, then consent) and the account's connected apps. Like every web page, behind the
 * session and CSRF middleware that `webRoutes` registers.
 */
export function authorizeRoutes(deps: Deps, fetcher: DocumentFetcher): Hono {
  const app = new Hono();

  consentRoutes(app, deps, fetcher);
  connectedAppRoutes(app, deps);

  app.onError(webErrorHandler(deps, { signInNext: true }));
  return app;
}

/** `GET` and `POST /authorize`: the consent page and its answer. */
function consentRoutes(app: Hono, deps: Deps, fetcher: DocumentFetcher): void {
  app.get("/authorize", async (c) => {
    const params = new URL(c.req.url).searchParams;
    const check = await checkAuthorizationRequest(deps, fetcher, params);
    if (check.kind !== "ok") return answerFailure(c, deps, check, 302);
    const account = c.get("account");
    if (!account) {
      const next = `/authorize?${params}`;
      return c.redirect(`/signin?next=${encodeURIComponent(next)}`, 302);
    }
    const spaces = await reachableSpaces(deps.db, { kind: "session", accountId: account.id });
    return c.html(
      <ConsentPage
        account={account}
        csrfToken={c.get("csrfToken")}
        request={check.request}
        params={params}
        spaces={spaces}
      />,
    );
  });

  // The consent form repeats the request's parameters, and they are checked again here: a
  // decision applies to exactly the client and redirect URI it names, with this session's
  // CSRF token. Answered with 303, never 307, so the browser does not re-post the form
  // to the client (RFC 9700 §4.12).
  app.post("/authorize", (c) => answerConsent(deps, fetcher, c));
}

/** The consent form's answer: a code for the spaces ticked, or `access_denied`. */
async function answerConsent(deps: Deps, fetcher: DocumentFetcher, c: Context) {
  const form = await c.req.formData();
  const params = new URLSearchParams();
  for (const [name, value] of form) if (typeof value === "string") params.append(name, value);
  const check = await checkAuthorizationRequest(deps, fetcher, params);
  if (check.kind !== "ok") return answerFailure(c, deps, check, 303);
  const account = c.get("account");
  if (!account) {
    throw new AppError("forbidden", "Sign in first, then answer the app's request again");
  }
  const { request } = check;
  const issuer = deps.config.baseUrl;
  if (params.get("decision") !== "allow") {
    deps.log.info("oauth consent denied", { client_id: request.client.id });
    return c.redirect(
      authorizationRedirect(request.redirectUri, issuer, request.state, {
        error: "access_denied",
        error_description: "The user denied the request",
      }),
      303,
    );
  }
  const spaces = await reachableSpaces(deps.db, { kind: "session", accountId: account.id });
  const reachable = new Set(spaces.map((s) => s.id));
  const chosen = [...new Set(params.getAll("space"))];
  // Allow with no space ticked would grant nothing, silently: ask again instead.
  if (chosen.length === 0) {
    const error = spaces.length === 0
      ? "You have no spaces to share yet: create one, then connect the app again (or Deny)"
      : "Tick at least one space for the app to read, or choose Deny";
    return c.html(
      <ConsentPage
        account={account}
        csrfToken={c.get("csrfToken")}
        request={request}
        params={params}
        spaces={spaces}
        error={error}
      />,
      400,
    );
  }
  const foreign = chosen.find((id) => !reachable.has(id));
  if (foreign) throw new AppError("forbidden", `Space "${foreign}" is not one of your spaces`);
  // Writing is granted only when the person ticked it, whatever the client asked for.
  const scope = consentedScope(request.scope, params.get("allow_write") === "on");
  const code = await issueCode(deps, { ...request, scope }, account.id, chosen);
  deps.log.info("oauth consent given", {
    client_id: request.client.id,
    account_id: account.id,
    spaces: chosen.length,
  });
  return c.redirect(
    authorizationRedirect(request.redirectUri, issuer, request.state, { code }),
    303,
  );
}

/** `/account/apps`: the connected apps, and disconnecting one. */
function connectedAppRoutes(app: Hono, deps: Deps): void {
  app.get("/account/apps", async (c) => {
    const account = requireAccount(c);
    const apps = await selectLiveGrantsOf(deps.db, account.id);
    return c.html(
      <ConnectedAppsPage account={account} csrfToken={c.get("csrfToken")} apps={apps} />,
    );
  });

  app.post("/account/apps/:id/revoke", async (c) => {
    const account = requireAccount(c);
    const id = c.req.param("id");
    if (!await revokeAccountGrant(deps.db, account.id, id)) {
      throw new AppError("not_found", `Connected app "${id}" not found or already disconnected`);
    }
    return c.redirect("/account/apps", 303);
  });
}

/**
 * A failed authorization request: a bad client or redirect URI gets an error page and no
 * redirect; anything else goes back to the client with `error`, `state` and `iss`.
 */
function answerFailure(
  c: Context,
  deps: Deps,
  check: Exclude<AuthorizationCheck, { kind: "ok" }>,
  status: 302 | 303,
): Response | Promise<Response> {
  if (check.kind === "page_error") {
    return c.html(
      <ErrorPage
        account={c.get("account") ?? null}
        csrfToken={c.get("csrfToken") ?? ""}
        title="This app's request cannot be answered"
        message={check.message}
      />,
      400,
    );
  }
  const location = authorizationRedirect(check.redirectUri, deps.config.baseUrl, check.state, {
    error: check.error,
    error_description: check.description,
  });
  return c.redirect(location, status);
}

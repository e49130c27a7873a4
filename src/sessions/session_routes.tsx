import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import { clientIp } from "../http/client_ip.ts";
import type {} from "../http/request_id.ts";
import {
  clearSessionCookie,
  createSession,
  invalidateSession,
  setSessionCookie,
} from "./sessions.ts";
import { ErrorPage } from "../kit/web/error_page.tsx";
import { SignInPage, SignUpPage } from "./session_pages.tsx";
import { signIn, signUp } from "./sign_in.ts";
import { LOGIN_LIMITS } from "./login_limit.ts";
import { setBudgetHeaders } from "../http/retry_headers.ts";
import { webErrorHandler } from "../kit/web/web_error_handler.tsx";

/** Sign-up, sign-in and sign-out, as server-rendered HTML (behind `webRoutes`). */
export function sessionRoutes(deps: Deps): Hono {
  const app = new Hono();

  signUpRoutes(app, deps);
  signInRoutes(app, deps);

  app.onError(webErrorHandler(deps, { signInNext: false }));

  return app;
}

/** `GET` and `POST /signup`. */
function signUpRoutes(app: Hono, deps: Deps): void {
  app.get("/signup", (c) => {
    const next = safeNext(c.req.query("next"));
    if (c.get("account")) return c.redirect(next ?? "/account", 303);
    return c.html(<SignUpPage {...pageContext(c)} next={next} />);
  });

  app.post("/signup", async (c) => {
    const form = await c.req.parseBody();
    const next = safeNext(form.next);
    const result = await signUp(deps.db, form, {
      ip: clientIp(c, deps.config),
      perHour: deps.config.rateLimits.signupsPerHour,
    }, deps.config.passwordHash);
    if (!result.ok && result.status === 429) {
      deps.log.warn("sign-up refused", { request_id: c.get("requestId"), reason: "rate_limited" });
      const minutes = Math.ceil(result.retryAfter / 60);
      const page = await c.html(
        <ErrorPage
          {...pageContext(c)}
          title="Too many sign-ups"
          message={`Too many accounts were made from this network. Try again in ${minutes} ${
            minutes === 1 ? "minute" : "minutes"
          }.`}
        />,
        429,
      );
      const perHour = deps.config.rateLimits.signupsPerHour;
      return refused(page, "signups", perHour, 3600, result.retryAfter);
    }
    if (!result.ok) {
      const values = { email: text(form.email), name: text(form.name) };
      return c.html(
        <SignUpPage {...pageContext(c)} values={values} errors={result.errors} next={next} />,
        result.status,
      );
    }
    if (!result.account) {
      // The email has an account: answer as for a new one, without a session (the account
      // page then asks to sign in), so the form does not tell who has an account here.
      deps.log.info("sign-up with a taken email", { request_id: c.get("requestId") });
      return c.redirect(next ?? "/account", 303);
    }
    await startSession(c, deps, result.account.id);
    deps.log.info("account created", {
      request_id: c.get("requestId"),
      account_id: result.account.id,
    });
    return c.redirect(next ?? "/account", 303);
  });
}

/** `GET` and `POST /signin`, and `POST /signout`. */
function signInRoutes(app: Hono, deps: Deps): void {
  app.get("/signin", (c) => {
    const next = safeNext(c.req.query("next"));
    if (c.get("account")) return c.redirect(next ?? "/account", 303);
    return c.html(<SignInPage {...pageContext(c)} next={next} />);
  });

  app.post("/signin", async (c) => {
    const form = await c.req.parseBody();
    const email = text(form.email);
    const next = safeNext(form.next);
    const result = await signIn(deps.db, {
      email,
      password: form.password,
      ip: clientIp(c, deps.config),
    }, deps.config.passwordHash);
    if (!result.ok) {
      const fields = { request_id: c.get("requestId"), reason: result.reason };
      if (result.reason === "rate_limited") {
        deps.log.warn("sign-in refused", fields);
        const minutes = Math.ceil(result.retryAfter / 60);
        const page = await c.html(
          <ErrorPage
            {...pageContext(c)}
            title="Too many sign-in attempts"
            message={`Too many failed sign-ins for this email or from this network. Try again in ${minutes} ${
              minutes === 1 ? "minute" : "minutes"
            }.`}
          />,
          429,
        );
        const { email, windowSeconds } = LOGIN_LIMITS;
        return refused(page, "sign-ins", email, windowSeconds, result.retryAfter);
      }
      deps.log.info("sign-in refused", fields);
      const error = result.reason === "incomplete"
        ? "Enter your email address and your password"
        : "The email or the password is not right";
      return c.html(
        <SignInPage {...pageContext(c)} email={email} error={error} next={next} />,
        400,
      );
    }
    await startSession(c, deps, result.accountId);
    return c.redirect(next ?? "/account", 303);
  });

  app.post("/signout", async (c) => {
    const token = c.get("sessionToken");
    if (token) await invalidateSession(deps.db, token);
    clearSessionCookie(c, deps.config);
    return c.redirect("/signin", 303);
  });
}

/** Signs the browser in as the account: a new session (never a reused one) and its cookie. */
async function startSession(c: Context, deps: Deps, accountId: string): Promise<void> {
  const previous = c.get("sessionToken");
  if (previous) await invalidateSession(deps.db, previous);
  const session = await createSession(deps.db, accountId, c.req.header("user-agent") ?? "");
  setSessionCookie(c, deps.config, session.token, session.expiresAt);
}

/**
 * Where to go after signing in or up: a path of this site only (`/x`, never `//host` or
 * `/\\host`, which browsers read as another origin), else null for the account page.
 */
export function safeNext(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 4000) return undefined;
  return /^\/(?![\/\\])[\x21-\x7e]*$/.test(value) ? value : undefined;
}

function pageContext(c: Context) {
  return { account: c.get("account"), csrfToken: c.get("csrfToken") };
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** A sign-up or sign-in refused for its budget: `Retry-After` and `RateLimit` that agree. */
function refused(
  page: Response,
  name: string,
  limit: number,
  windowSeconds: number,
  resetSeconds: number,
): Response {
  setBudgetHeaders(page.headers, { name, limit, windowSeconds, remaining: 0, resetSeconds }, true);
  return page;
}

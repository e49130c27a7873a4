import { reachableSpaces } from "../access/access_policy.ts";
import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { requireAccount } from "../kit/web/require_account.ts";
import { webErrorHandler } from "../kit/web/web_error_handler.tsx";
import { TokensPage } from "./token_pages.tsx";
import { createToken, revokeToken } from "./tokens.ts";
import { selectTokensOf } from "./mod.ts";

/**
 * The account's tokens in the web app: made (shown once), listed with their last use, revoked
 * (effective at once). Behind the session and CSRF middleware, like every web page.
 */
export function tokenRoutes(deps: Deps): Hono {
  const app = new Hono();

  const render = async (
    c: Context,
    extra: { created?: string; createdSpace?: string | undefined; error?: string },
  ) => {
    const account = requireAccount(c);
    const [tokens, spaces] = await Promise.all([
      selectTokensOf(deps.db, account.id),
      reachableSpaces(deps.db, { kind: "session", accountId: account.id }),
    ]);
    return c.html(
      <TokensPage
        account={account}
        csrfToken={c.get("csrfToken")}
        tokens={tokens}
        spaces={spaces}
        baseUrl={deps.config.baseUrl}
        {...extra}
      />,
      extra.error ? 400 : 200,
    );
  };

  app.get("/account/tokens", (c) => render(c, {}));

  app.post("/account/tokens", async (c) => {
    const account = requireAccount(c);
    const form = await c.req.parseBody();
    const days = String(form.expires_days ?? "").trim();
    if (days && !(Number(days) > 0 && Number(days) <= 3650)) {
      return render(c, { error: "Expiry must be a number of days from 1 to 3650, or empty" });
    }
    try {
      const space = String(form.space ?? "");
      const made = await createToken(deps.db, {
        accountId: account.id,
        kind: space ? "space" : "account",
        spaceId: space || undefined,
        scope: form.scope === "read_propose" ? "read_propose" : "read",
        name: String(form.name ?? ""),
        expiresAt: days ? new Date(Date.now() + Number(days) * 86_400_000) : null,
      });
      return render(c, { created: made.token, createdSpace: space || undefined });
    } catch (error) {
      if (error instanceof AppError) return render(c, { error: error.detail });
      throw error;
    }
  });

  app.post("/account/tokens/:id/revoke", async (c) => {
    await revokeToken(deps.db, requireAccount(c).id, c.req.param("id"));
    return c.redirect("/account/tokens", 303);
  });

  app.onError(webErrorHandler(deps, { signInNext: true }));
  return app;
}

import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { webErrorHandler } from "../kit/web/web_error_handler.tsx";
import { listPublicWikis } from "./list_public_wikis.ts";
import { LandingPage } from "./landing_page.tsx";

const LISTED = 50;

/** The front page at `/`. */
export function landingRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.get("/", async (c) => {
    const { wikis, next_cursor } = await listPublicWikis(deps, { limit: LISTED });
    return c.html(
      <LandingPage
        account={c.get("account")}
        csrfToken={c.get("csrfToken")}
        baseUrl={deps.config.baseUrl}
        wikis={wikis}
        more={next_cursor !== null}
      />,
    );
  });
  app.onError(webErrorHandler(deps, { signInNext: true }));
  return app;
}

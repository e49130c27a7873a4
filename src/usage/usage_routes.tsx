import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { webErrorHandler } from "../sessions/web_error_handler.tsx";
import { loadWebSpace } from "../web/space_access.ts";
import { webPage } from "../web/web_middleware.ts";
import { PERIODS, UsagePage } from "./usage_page.tsx";
import { usageReport } from "./usage_report.ts";

const TOP_PAGES = 25;
const NOTES = 10;

/** `GET /w/:id/-/usage?days=7|30|90`: a wiki's usage by assistants, for its members. */
export function usageRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.use("/w/:id/-/usage", ...webPage(deps));

  app.get("/w/:id/-/usage", async (c) => {
    const id = c.req.param("id");
    // Members only, of public wikis too: usage tells who reads what, which visitors need not
    // know. A private space stays hidden (404) from non-members.
    const { wiki } = await loadWebSpace(deps, c, id, "member", "see its usage");
    const asked = Number(c.req.query("days"));
    const days = PERIODS.find((p) => p === asked) ?? 30;
    const report = await usageReport(deps.db, wiki.id, days, { topPages: TOP_PAGES, notes: NOTES });
    return c.html(
      <UsagePage
        account={c.get("account")}
        csrfToken={c.get("csrfToken")}
        {...{ wiki, days, ...report }}
      />,
    );
  });

  app.onError(webErrorHandler(deps, { signInNext: true }));
  return app;
}

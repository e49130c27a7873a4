import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { webErrorHandler } from "../sessions/web_error_handler.tsx";
import { openSpace } from "../spaces/space_context.ts";
import {
  selectDailyUsage,
  selectRecentNotes,
  selectTopPages,
  selectUsageByClient,
} from "./store.ts";
import { PERIODS, UsagePage } from "./usage_page.tsx";

const TOP_PAGES = 25;
const NOTES = 10;

/** `GET /w/:id/-/usage?days=7|30|90`: a wiki's usage by assistants, for its members. */
export function usageRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get("/w/:id/-/usage", async (c) => {
    const id = c.req.param("id");
    // Members only, of public wikis too: usage tells who reads what, which visitors need not
    // know. A private space stays hidden (404) from non-members.
    const view = await openSpace(deps, c, "read");
    const { wiki, role } = view.space;
    if (!role) {
      if (!c.get("account")) throw new AppError("unauthorized", "Sign in to see this usage");
      throw new AppError("forbidden", `Only members of "${id}" can see its usage`);
    }
    const asked = Number(c.req.query("days"));
    const days = PERIODS.find((p) => p === asked) ?? 30;
    const [daily, confirmed, read, clients, notes] = await Promise.all([
      selectDailyUsage(deps.db, wiki.id, days),
      selectTopPages(deps.db, wiki.id, "confirm", days, TOP_PAGES),
      selectTopPages(deps.db, wiki.id, "read", days, TOP_PAGES),
      selectUsageByClient(deps.db, wiki.id, days),
      selectRecentNotes(deps.db, wiki.id, days, NOTES),
    ]);
    return c.html(
      <UsagePage
        account={c.get("account")}
        csrfToken={c.get("csrfToken")}
        view={view}
        {...{ wiki, days, daily, confirmed, read, clients, notes }}
      />,
    );
  });

  app.onError(webErrorHandler(deps, { signInNext: true }));
  return app;
}

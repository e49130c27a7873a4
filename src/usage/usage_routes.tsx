import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { webErrorHandler } from "../kit/web/web_error_handler.tsx";
import { openSpace } from "../kit/web/space_context.ts";
import { PERIODS, UsagePage } from "./usage_page.tsx";
import { usageReport } from "./usage_report.ts";
import { RatingsSection } from "../ratings/ratings_section.tsx";
import { readerRatings } from "../ratings/ratings.ts";

const TOP_PAGES = 25;
const NOTES = 10;
const QUESTIONS = 25;
const GAPS = 25;

/** `GET /w/:id/-/usage?days=7|30|90`: a wiki's usage by assistants, for its members. */
export function usageRoutes(deps: Deps): Hono {
  const app = new Hono();

  app.get("/w/:id/-/usage", async (c) => {
    // Members only, of public wikis too: usage tells who reads what, which visitors need not
    // know. A private space stays hidden (404) from non-members.
    const view = await openSpace(deps, c, "member", "see its usage");
    const { wiki } = view.space;
    const asked = Number(c.req.query("days"));
    const days = PERIODS.find((p) => p === asked) ?? 30;
    const report = await usageReport(deps.db, wiki.id, days, {
      topPages: TOP_PAGES,
      notes: NOTES,
      questions: QUESTIONS,
      gaps: GAPS,
    });
    const { pages: counts, comments } = await readerRatings(deps.db, wiki.id, days, {
      pages: TOP_PAGES,
      comments: NOTES,
    });
    return c.html(
      <UsagePage
        account={c.get("account")}
        csrfToken={c.get("csrfToken")}
        view={view}
        ratings={<RatingsSection wikiId={wiki.id} counts={counts} comments={comments} />}
        {...{ wiki, days, ...report }}
      />,
    );
  });

  app.onError(webErrorHandler(deps, { signInNext: true }));
  return app;
}

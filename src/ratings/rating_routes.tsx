import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { cleanPath } from "../markdown/paths.ts";
import { formText, openSpace } from "../kit/web/space_context.ts";
import { pageHref } from "../kit/web/space_urls.ts";
import { WikiFrame } from "../kit/web/wiki_frame.tsx";
import { insertRating } from "./mod.ts";

/** `POST /w/<id>/-/helpful`: a reader's "Was this page helpful?" (anyone who may read the page). */
export function ratingRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.post("/w/:id/-/helpful", async (c) => {
    const view = await openSpace(deps, c, "read");
    const form = await c.req.parseBody();
    const path = cleanPath(formText(form.path));
    const answer = formText(form.helpful);
    if (!path || (answer !== "yes" && answer !== "no")) {
      throw new AppError("bad_request", "Say which page, and yes or no");
    }
    const comment = formText(form.comment).trim().slice(0, 1000) || null;
    await insertRating(deps.db, {
      wikiId: view.space.wiki.id,
      path,
      helpful: answer === "yes",
      comment,
    });
    return c.html(
      <WikiFrame {...view} title="Thank you">
        <p role="status">Thank you: the authors of this wiki will see what you said.</p>
        <p>
          <a href={pageHref(view.space.wiki.id, path)}>Back to the page</a>
        </p>
      </WikiFrame>,
    );
  });
  return app;
}

import { Hono } from "hono";
import { askWikis } from "../ask/ask.ts";
import { streamAnswer } from "../api/stream_answer.ts";
import type { Deps } from "../deps.ts";
import { titleOf } from "../usage/question_gaps.ts";
import { WEB_CLIENT } from "../usage/record_usage.ts";
import { loadWebSpace } from "../web/space_access.ts";

/**
 * `GET /w/<id>/-/ask/stream?q=…`: the Ask page's answer as server-sent events, the REST API's
 * stream (`streamAnswer`: `status`, `delta` sentences, then `answer` or `error`), for
 * `src/web/assets/ask.js`. The session's access to the space is checked as for the page;
 * the whole page (`GET /w/<id>/-/ask?q=…`, in `view_routes.tsx`) needs no script.
 */
export function askRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.get("/w/:id/-/ask/stream", async (c) => {
    const { wiki } = await loadWebSpace(deps, c, c.req.param("id"), "read");
    const question = c.req.query("q") ?? "";
    // The answer as the API gives it, with the title a "write this page" link starts from.
    return streamAnswer(c, async () => {
      const answer = await askWikis(deps, [wiki.id], { question }, WEB_CLIENT);
      return Object.assign(answer, { page_title: titleOf(answer.question) });
    });
  });
  return app;
}

import { Hono } from "hono";
import { askWikis } from "../ask/ask.ts";
import { streamAnswer } from "../api/stream_answer.ts";
import type { Deps } from "../deps.ts";
import { WEB_CLIENT } from "../usage/record_usage.ts";
import { loadWebSpace } from "../web/space_access.ts";
import { AnswerView } from "./ask_page.tsx";
import { relativeUrl } from "./space_urls.ts";

/**
 * `GET /w/<id>/-/ask/stream?q=…`: the Ask page's answer as server-sent events, the REST API's
 * stream (`streamAnswer`: `status`, `delta` sentences, then `answer` or `error`), for
 * `src/web/assets/ask.js`. The final answer also carries `html`, the answer as the page renders
 * it (`AnswerView`), so the script puts it in place instead of rendering it a second way. The
 * session's access to the space is checked as for the page; the whole page
 * (`GET /w/<id>/-/ask?q=…`, in `view_routes.tsx`) needs no script.
 */
export function askRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.get("/w/:id/-/ask/stream", async (c) => {
    const { wiki, role } = await loadWebSpace(deps, c, c.req.param("id"), "read");
    const question = c.req.query("q") ?? "";
    return streamAnswer(c, async () => {
      const answer = await askWikis(deps, [wiki.id], { question }, {
        ...WEB_CLIENT,
        // A reload of the same question by the same session is the same asking.
        asker: c.get("rateLimit")?.key,
      });
      const html = await (
        <AnswerView
          answer={answer}
          wikiId={wiki.id}
          member={!!role}
          href={(url) => relativeUrl(url, deps.config.baseUrl)}
        />
      ).toString();
      return Object.assign(answer, { html });
    });
  });
  return app;
}

import { Hono } from "hono";
import { askWikis } from "./ask.ts";
import { streamAnswer } from "./stream_answer.ts";
import type { Deps } from "../deps.ts";
import { WEB_CLIENT } from "../usage/record_usage.ts";
import { loadWebSpace } from "../kit/web/space_access.ts";
import { AnswerView, AskPage } from "./ask_page.tsx";
import { AppError } from "../errors.ts";
import { openSpace } from "../kit/web/space_context.ts";
import { relativeUrl } from "../kit/web/space_urls.ts";

/**
 * The Ask page of a wiki, `GET /w/<id>/-/ask?q=…`, and `GET /w/<id>/-/ask/stream?q=…`: its
 * answer as server-sent events, the REST API's stream (`streamAnswer`: `status`, `delta`
 * sentences, then `answer` or `error`), for `src/web/assets/ask.js`. The final answer also carries `html`, the answer as the page renders
 * it (`AnswerView`), so the script puts it in place instead of rendering it a second way. The
 * session's access to the space is checked as for the page; the whole page
 * (`GET /w/<id>/-/ask?q=…`) needs no script.
 */
export function askRoutes(deps: Deps): Hono {
  const app = new Hono();
  // Ask the wiki: a GET form (shareable, no script needed), answered in full on the server.
  app.get("/w/:id/-/ask", async (c) => {
    const view = await openSpace(deps, c, "read");
    const question = c.req.query("q")?.trim() ?? "";
    const href = (url: string) => relativeUrl(url, deps.config.baseUrl);
    if (!question) return c.html(<AskPage {...view} question="" answer={null} href={href} />);
    // From the wiki bar's Ask button with script on (`nav.js` adds `stream=1`): the page comes
    // at once and `ask.js` streams the answer into it, as from the Ask page's own form.
    if (c.req.query("stream") === "1") {
      return c.html(<AskPage {...view} question={question} answer={null} href={href} streamed />);
    }
    try {
      const answer = await askWikis(deps, [view.space.wiki.id], { question }, {
        ...WEB_CLIENT,
        // A reload of the same question by the same session is the same asking.
        asker: c.get("rateLimit")?.key,
      });
      return c.html(<AskPage {...view} question={question} answer={answer} href={href} />);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 400) throw error;
      return c.html(
        <AskPage {...view} question={question} answer={null} href={href} error={error.detail} />,
        400,
      );
    }
  });

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

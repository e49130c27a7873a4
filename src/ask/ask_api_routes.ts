import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Deps } from "../deps.ts";
import { bodyLimit } from "../http/body_limit.ts";
import { requireJson, REST_BODY_LIMIT } from "../kit/rest/rest_edges.ts";
import { problems, wikiIdParam } from "../kit/rest/schemas.ts";
import { type ReadScope, scopeParts } from "../kit/rest/read_scope.ts";
import { answerSchema, askInput } from "./ask_schema.ts";
import { askWikis } from "./ask.ts";
import { streamAnswer } from "./stream_answer.ts";

/** Registers questions under the scope's base (`…/ask`): JSON, or server-sent events. */
export function registerAskRoutes(app: OpenAPIHono, deps: Deps, scope: ReadScope): void {
  const { base, tag, resolve } = scope;
  const { op, security, auth } = scopeParts(scope);
  app.openapi(
    createRoute({
      method: "post",
      path: `${base}/ask`,
      operationId: op("Ask"),
      tags: [tag],
      summary: "Ask a question: an answer with citations and frontier notes",
      description:
        "Send `Accept: text/event-stream` to receive progress and the answer as server-sent events.",
      security,
      middleware: [bodyLimit(REST_BODY_LIMIT), requireJson()],
      request: {
        params: wikiIdParam,
        body: { required: true, content: { "application/json": { schema: askInput } } },
      },
      responses: {
        200: {
          description: "The answer (or an event stream with `Accept: text/event-stream`)",
          content: {
            "application/json": { schema: answerSchema },
            "text/event-stream": { schema: z.string() },
          },
        },
        ...problems(400, ...auth, 404, 413, 415),
      },
    }),
    async (c) => {
      const wiki = await resolve(c, c.req.valid("param").id);
      const input = c.req.valid("json");
      // `asker`: the key this caller's budget is counted on, so a repeat is one asking.
      const asker = {
        via: "rest",
        client: c.req.header("user-agent"),
        asker: c.get("rateLimit")?.key,
      } as const;
      if ((c.req.header("accept") ?? "").includes("text/event-stream")) {
        return streamAnswer(c, () => askWikis(deps, [wiki], input, asker));
      }
      return c.json(await askWikis(deps, [wiki], input, asker), 200);
    },
  );
}

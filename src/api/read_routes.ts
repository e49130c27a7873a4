import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyLimit } from "../http/body_limit.ts";
import { requireJson, REST_BODY_LIMIT } from "./rest_edges.ts";
import { answerSchema, askInput } from "../ask/ask_schema.ts";
import { askWikis } from "../ask/ask.ts";
import type { Deps } from "../deps.ts";
import {
  getPageContent,
  pageContentSchema,
  readPageText,
  splitSection,
} from "../pages/get_page_content.ts";
import { listNeighbors, neighborsSchema } from "../pages/list_neighbors.ts";
import { listPages, listPagesInput, pageListSchema } from "../pages/list_pages.ts";
import { listRevisions, listRevisionsInput, revisionListSchema } from "../pages/list_revisions.ts";
import { resolvePageRef } from "../pages/read_page.ts";
import { searchAndRecord } from "../search/search_and_record.ts";
import { searchOutputSchema } from "../search/search_wikis.ts";
import { recordRead } from "../usage/record_usage.ts";
import { json, pageParams, problems, wikiIdParam } from "./schemas.ts";
import { streamAnswer } from "./stream_answer.ts";
import { matchesIfNoneMatch } from "../lib/etag.ts";

/** How a family of routes finds its wiki from the `{id}` in the path (and who may read it). */
export type WikiResolver = (c: Context, id: string) => Promise<string>;

/**
 * Registers the read routes under `base` (`/public/wikis/{id}` or `/spaces/{id}`): page list,
 * page (JSON or markdown, with ETag), neighbours, search and ask. One definition serves both
 * public wikis and private spaces; only `resolve` differs.
 */
export function registerReadRoutes(
  app: OpenAPIHono,
  deps: Deps,
  options: {
    base: string;
    tag: string;
    resolve: WikiResolver;
    secured: boolean;
    /** Names this family's operations: `public` gives `publicListPages`, … */
    operationPrefix: "public" | "space";
  },
): void {
  const { base, tag, resolve } = options;
  const op = (name: string) => `${options.operationPrefix}${name}`;
  const security = options.secured ? [{ bearer: [] }] : undefined;
  const auth = options.secured ? [401, 403] : [];

  app.openapi(
    createRoute({
      method: "get",
      path: `${base}/pages`,
      operationId: op("ListPages"),
      tags: [tag],
      summary: "List pages, by path (optionally under a folder, with one page's headings)",
      security,
      request: { params: wikiIdParam, query: listPagesInput },
      responses: {
        200: json(pageListSchema, "A page of the wiki's pages"),
        ...problems(400, ...auth, 404),
      },
    }),
    async (c) => {
      const wiki = await resolve(c, c.req.valid("param").id);
      return c.json(await listPages(deps, wiki, c.req.valid("query")), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: `${base}/pages/{path}`,
      operationId: op("GetPage"),
      tags: [tag],
      summary: "Read a page (JSON, or raw markdown with Accept: text/markdown)",
      security,
      request: {
        params: pageParams,
        query: z.object({
          // Written out: the generator types a default of 0 as nullable, and null is refused.
          offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0).openapi({
            type: "integer",
            minimum: 0,
            maximum: 1_000_000_000,
            default: 0,
          }),
          max_chars: z.coerce.number().int().min(200).max(50_000).default(50_000),
          revision: z.coerce.number().int().min(1).max(2_147_483_647).optional().openapi({
            description: "Read this earlier revision (any listed by …/revisions)",
          }),
          if_changed_since: z.coerce.number().int().min(1).max(2_147_483_647).optional().openapi({
            description: "The revision you have: 304 if the page is still at it",
          }),
        }),
      },
      responses: {
        200: {
          description: "The page (at `revision` if given); `ETag` names the page and revision",
          content: {
            "application/json": { schema: pageContentSchema },
            "text/markdown": { schema: z.string() },
          },
        },
        304: {
          description:
            "Not modified: the ETag in If-None-Match, or the page still at `if_changed_since`",
        },
        ...problems(400, ...auth, 404),
      },
    }),
    async (c) => {
      const { id, path } = c.req.valid("param");
      const wiki = await resolve(c, id);
      const query = c.req.valid("query");
      const page = await resolvePageRef(deps.db, wiki, splitSection(path).ref);
      const etag = `"${page.id}-${query.revision ?? page.revision}"`;
      const unchanged = query.revision === undefined && query.if_changed_since === page.revision;
      if (unchanged || matchesIfNoneMatch(c.req.header("if-none-match"), etag)) {
        return c.body(null, 304, { ETag: etag });
      }
      const read = { wikiId: wiki, page: page.path, client: c.req.header("user-agent") };
      if ((c.req.header("accept") ?? "").includes("text/markdown")) {
        const text = await readPageText(deps.db, page, query.revision);
        await recordRead(deps, read);
        return c.body(text.markdown, 200, {
          "Content-Type": "text/markdown; charset=utf-8",
          ETag: etag,
        });
      }
      const section = splitSection(path).section;
      const content = await getPageContent(deps, wiki, {
        ...query,
        page: section ? `${page.id}#${section}` : String(page.id),
      }, page);
      await recordRead(deps, read, { offset: query.offset });
      return c.json(content, 200, { ETag: etag });
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: `${base}/pages/{path}/revisions`,
      operationId: op("ListRevisions"),
      tags: [tag],
      summary: "A page's kept revisions, newest first (read one with `?revision=`)",
      security,
      request: { params: pageParams, query: listRevisionsInput },
      responses: {
        200: json(revisionListSchema, "The page's revisions"),
        ...problems(400, ...auth, 404),
      },
    }),
    async (c) => {
      const { id, path } = c.req.valid("param");
      const wiki = await resolve(c, id);
      return c.json(await listRevisions(deps, wiki, path, c.req.valid("query")), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: `${base}/pages/{path}/neighbors`,
      operationId: op("ListNeighbors"),
      tags: [tag],
      summary: "Pages this page links to (including missing ones) and pages linking to it",
      security,
      request: {
        params: pageParams,
        query: z.object({
          direction: z.enum(["out", "in", "both"]).default("both"),
          limit: z.coerce.number().int().min(1).max(200).default(50),
        }),
      },
      responses: { 200: json(neighborsSchema, "Typed edges"), ...problems(400, ...auth, 404) },
    }),
    async (c) => {
      const { id, path } = c.req.valid("param");
      const wiki = await resolve(c, id);
      return c.json(await listNeighbors(deps, wiki, { page: path, ...c.req.valid("query") }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: `${base}/search`,
      operationId: op("Search"),
      tags: [tag],
      summary: "Hybrid search: pages with their best passage",
      security,
      request: {
        params: wikiIdParam,
        query: z.object({
          q: z.string().min(1).max(1000).openapi({
            description: "The query",
            example: "connect cursor",
          }),
          limit: z.coerce.number().int().min(1).max(50).default(10),
          cursor: z.string().max(200).optional(),
        }),
      },
      responses: { 200: json(searchOutputSchema, "Ranked pages"), ...problems(400, ...auth, 404) },
    }),
    async (c) => {
      const wiki = await resolve(c, c.req.valid("param").id);
      const { q, limit, cursor } = c.req.valid("query");
      const out = await searchAndRecord(deps, [wiki], { query: q, limit, cursor }, {
        via: "rest",
        client: c.req.header("user-agent"),
      });
      return c.json(out, 200);
    },
  );

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

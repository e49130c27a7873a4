import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Deps } from "../deps.ts";
import {
  getPageContent,
  pageContentSchema,
  readPageText,
  splitSection,
} from "./get_page_content.ts";
import { listNeighbors, neighborsSchema } from "./list_neighbors.ts";
import { listPages, listPagesInput, pageListSchema } from "./list_pages.ts";
import { listRevisions, listRevisionsInput, revisionListSchema } from "./list_revisions.ts";
import { resolvePageRef } from "./read_page.ts";
import { recordRead } from "../usage/record_usage.ts";
import { json, pageParams, problems, wikiIdParam } from "../kit/rest/schemas.ts";
import { type ReadScope, scopeParts } from "../kit/rest/read_scope.ts";
import { resolveVersionPage } from "../versions/version_pages.ts";
import { resolveVersion, versionParam } from "../versions/versions.ts";
import { matchesIfNoneMatch } from "../lib/etag.ts";
import { readingDeps } from "../db/replicas.ts";

/**
 * Registers the page reads under the scope's base (`/public/wikis/{id}` or `/spaces/{id}`):
 * page list, page (JSON or markdown, with ETag), its revisions and its neighbours.
 */
export function registerPageRoutes(app: OpenAPIHono, deps: Deps, scope: ReadScope): void {
  listPagesRoute(app, deps, scope);
  getPageRoute(app, deps, scope);
  listRevisionsRoute(app, deps, scope);
  neighborsRoute(app, deps, scope);
}

/** GET …/pages: the wiki's pages by path. */
function listPagesRoute(app: OpenAPIHono, deps: Deps, scope: ReadScope): void {
  const { base, tag, resolve } = scope;
  const { op, security, auth } = scopeParts(scope);
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
      const reading = await readingDeps(deps, c.get("rateLimit")?.key);
      return c.json(await listPages(reading, wiki, c.req.valid("query")), 200);
    },
  );
}

/** The query of GET …/pages/{path}: where the slice starts, its size, a revision, a version. */
const getPageQuery = z.object({
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
  version: versionParam,
});

/** GET …/pages/{path}: a page as JSON or markdown, with its ETag. */
function getPageRoute(app: OpenAPIHono, deps: Deps, scope: ReadScope): void {
  const { base, tag, resolve } = scope;
  const { op, security, auth } = scopeParts(scope);
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
        query: getPageQuery,
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
      // A version (named, or the space's default) is read in that version.
      const version = await resolveVersion(deps.db, wiki, query.version);
      const page = version
        ? await resolveVersionPage(deps.db, version, splitSection(path).ref)
        : await resolvePageRef(deps.db, wiki, splitSection(path).ref);
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
      const content = await getPageContent(
        deps,
        wiki,
        { ...query, page: section ? `${page.id}#${section}` : String(page.id) },
        version ? undefined : page,
      );
      await recordRead(deps, read, { offset: query.offset });
      return c.json(content, 200, { ETag: etag });
    },
  );
}

/** GET …/pages/{path}/revisions: the page's kept revisions. */
function listRevisionsRoute(app: OpenAPIHono, deps: Deps, scope: ReadScope): void {
  const { base, tag, resolve } = scope;
  const { op, security, auth } = scopeParts(scope);
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
}

/** GET …/pages/{path}/neighbors: links out and in. */
function neighborsRoute(app: OpenAPIHono, deps: Deps, scope: ReadScope): void {
  const { base, tag, resolve } = scope;
  const { op, security, auth } = scopeParts(scope);
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
          version: versionParam,
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
}

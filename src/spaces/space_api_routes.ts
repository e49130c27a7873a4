import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { auditedSpace } from "../audit/record_audit.ts";
import { authorize, type Need } from "../access/access_policy.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { importArchive } from "../importer/import_archive.ts";
import { type Archive, readArchive } from "../importer/read_archive.ts";
import type { SourcePage } from "../importer/read_sources.ts";
import { cleanPath } from "../markdown/paths.ts";
import { deletePage } from "../pages/rename_page.ts";
import { writePage } from "../pages/write_page.ts";
import { listSpaces, spaceListSchema } from "../wikis/list_spaces.ts";
import { pageUrl } from "../lib/urls.ts";
import { bodyLimit } from "../http/body_limit.ts";
import { timeout } from "../http/request_timeout.ts";
import {
  IMPORT_BODY_LIMIT,
  openapiWithBody,
  parseIfMatch,
  REST_BODY_LIMIT,
  withIfMatch,
} from "../kit/rest/rest_edges.ts";
import { json, pageParams, problems, wikiIdParam } from "../kit/rest/schemas.ts";

/** Largest JSON batch of pages one import takes. */
const MAX_IMPORT_PAGES = 5_000;
/** A JSON (or `…+json`) Content-Type: the body was validated against the route's schema. */
const JSON_TYPE = /^application\/(.+\+)?json\b/i;

/** A page written as JSON. */
const pageWriteBody = z.object({
  markdown: z.string(),
  title: z.string().optional(),
}).openapi("PageWrite");

/** One page of a JSON import batch; each item is checked alone (a bad one is reported). */
const importPageSchema = z.object({
  path: z.string(),
  title: z.string().optional(),
  markdown: z.string(),
});

/** A JSON import batch. */
const importBatch = z.object({
  pages: z.array(z.unknown()).max(MAX_IMPORT_PAGES, {
    message: `At most ${MAX_IMPORT_PAGES} pages per import`,
  }).openapi({
    description: 'Pages as {"path": string, "title"?: string, "markdown": string}; an item ' +
      "that is not is reported in `failed`, the others are imported",
  }),
}).openapi("ImportBatch");

/** `If-Match`: write only if the page is still at this revision. */
const ifMatchHeader = z.object({
  "if-match": z.string().max(100).optional().openapi({
    description: 'The page\'s ETag (`"<id>-<revision>"`), a bare revision, or `*`',
  }),
});

const writeResult = z.object({
  status: z.enum(["created", "updated", "unchanged"]),
  page: z.string(),
  revision: z.number().int(),
  url: z.string(),
});

const importSummary = z.object({
  added: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  deleted: z.number().int(),
  failed: z.array(z.object({ name: z.string(), error: z.string() })),
  files: z.array(z.object({
    name: z.string().openapi({ description: "The file's path in the zip" }),
    file: z.string().nullable().openapi({ description: "The name it is stored under" }),
    status: z.enum(["created", "renamed", "unchanged", "failed"]),
    reason: z.string().nullable(),
  })).openapi({
    description: "The zip's images and PDFs, stored as the space's files (the pages' links " +
      "pointed at them); `renamed` when the name held other bytes and the file was kept beside it",
  }),
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })).openapi({
    description: "Entries of the zip that are neither pages nor files, and why",
  }),
});

const security = [{ bearer: [] }];

/** The space `id` names, if the caller's account token reaches it with `need`. */
async function requireSpace(
  deps: Deps,
  c: Context,
  id: string,
  need: Need = "read",
): Promise<string> {
  return auditedSpace(c, (await authorize(deps, c.get("credential"), id, need, "rest")).wiki.id);
}

/** The account token's routes: its spaces, page writes and imports (reads: `readRoutes`). */
export function registerSpaceRoutes(app: OpenAPIHono, deps: Deps): void {
  listSpacesRoute(app, deps);
  putPageRoute(app, deps);
  deletePageRoute(app, deps);
  importPagesRoute(app, deps);
}

/** GET /spaces: the spaces the account token reaches. */
function listSpacesRoute(app: OpenAPIHono, deps: Deps): void {
  app.openapi(
    createRoute({
      method: "get",
      path: "/spaces",
      operationId: "listSpaces",
      tags: ["Spaces"],
      summary: "The spaces this account token reaches",
      security,
      responses: { 200: json(spaceListSchema, "The caller's spaces"), ...problems(401, 403) },
    }),
    async (c) => c.json(await listSpaces(deps, c.get("credential")), 200),
  );
}

/** PUT /spaces/{id}/pages/{path}: create or update a page, guarded by If-Match. */
function putPageRoute(app: OpenAPIHono, deps: Deps): void {
  openapiWithBody(
    app,
    createRoute({
      method: "put",
      path: "/spaces/{id}/pages/{path}",
      operationId: "putSpacePage",
      tags: ["Spaces"],
      summary: "Create or update a page",
      description:
        "Send the markdown as `text/markdown`, or JSON `{markdown, title?}`. With `If-Match` (the " +
        "page's ETag, or `*`), the write happens only if the page is still at that revision (else 412).",
      security,
      middleware: [bodyLimit(REST_BODY_LIMIT)],
      request: {
        params: pageParams,
        headers: ifMatchHeader,
        body: {
          required: true,
          description: "The page's markdown",
          content: {
            "text/markdown": { schema: z.string() },
            "text/plain": { schema: z.string() },
            "application/json": { schema: pageWriteBody },
          },
        },
      },
      responses: {
        200: json(writeResult, "Updated, or unchanged"),
        201: json(writeResult, "Created"),
        ...problems(400, 401, 403, 404, 409, 412, 413, 415, 422),
      },
    }),
    async (c) => {
      const { id, path } = c.req.valid("param");
      const wikiId = await requireSpace(deps, c, id, "write");
      const { markdown, title } = JSON_TYPE.test(c.req.header("content-type") ?? "")
        // The library types the body as the union of its media types; JSON ones are validated.
        ? c.req.valid("json") as z.infer<typeof pageWriteBody>
        : { markdown: await c.req.text(), title: undefined };
      const baseRevision = parseIfMatch(c.req.header("if-match"));
      const credential = c.get("credential");
      const outcome = await withIfMatch(() =>
        writePage(deps, { wikiId, path, markdown, title, baseRevision }, {
          author: credential.accountId,
          source: "api",
        })
      );
      const body = {
        status: outcome.status,
        page: outcome.page.path,
        revision: outcome.page.revision,
        url: pageUrl(deps.config.baseUrl, wikiId, outcome.page.path),
      };
      const etag = `"${outcome.page.id}-${outcome.page.revision}"`;
      return outcome.status === "created"
        ? c.json(body, 201, { ETag: etag })
        : c.json(body, 200, { ETag: etag });
    },
  );
}

/** DELETE /spaces/{id}/pages/{path}: delete a page, guarded by If-Match. */
function deletePageRoute(app: OpenAPIHono, deps: Deps): void {
  app.openapi(
    createRoute({
      method: "delete",
      path: "/spaces/{id}/pages/{path}",
      operationId: "deleteSpacePage",
      tags: ["Spaces"],
      summary: "Delete a page (its history is kept)",
      security,
      request: { params: pageParams, headers: ifMatchHeader },
      responses: { 204: { description: "Deleted" }, ...problems(401, 403, 404, 409, 412) },
    }),
    async (c) => {
      const { id, path } = c.req.valid("param");
      const wikiId = await requireSpace(deps, c, id, "write");
      const baseRevision = parseIfMatch(c.req.header("if-match"));
      await withIfMatch(() =>
        deletePage(deps, { wikiId, path, baseRevision }, {
          author: c.get("credential").accountId,
          source: "api",
        })
      );
      return c.body(null, 204);
    },
  );
}

/** POST /spaces/{id}/import: a zip or a JSON batch of pages. */
function importPagesRoute(app: OpenAPIHono, deps: Deps): void {
  openapiWithBody(
    app,
    createRoute({
      method: "post",
      path: "/spaces/{id}/import",
      operationId: "importSpacePages",
      tags: ["Spaces"],
      summary: "Import pages: a zip of markdown files (with its images and PDFs), or a JSON batch",
      description:
        "Each page is written on its own; unchanged pages are skipped; unreadable ones are " +
        "reported. A zip's images and PDFs become the space's files and the pages' links point " +
        "at them (as the web import does); its other entries are listed in `skipped`. A zip in " +
        "the shape of GitBook, MkDocs, Docusaurus or Mintlify keeps its navigation.",
      security,
      middleware: [
        bodyLimit(IMPORT_BODY_LIMIT),
        timeout({ ms: deps.config.timeouts.importMs, log: deps.log }),
      ],
      request: {
        params: wikiIdParam,
        body: {
          required: true,
          description: "A zip of markdown files, or a JSON batch",
          content: {
            "application/zip": { schema: z.string().openapi({ format: "binary" }) },
            "application/x-zip-compressed": { schema: z.string().openapi({ format: "binary" }) },
            "application/json": { schema: importBatch },
          },
        },
      },
      responses: {
        200: json(importSummary, "What the import did"),
        ...problems(400, 401, 403, 404, 413, 415),
      },
    }),
    async (c) => {
      const wikiId = await requireSpace(deps, c, c.req.valid("param").id, "write");
      let archive: Archive;
      if (JSON_TYPE.test(c.req.header("content-type") ?? "")) {
        const pages = (c.req.valid("json") as z.infer<typeof importBatch>).pages;
        archive = { pages: pages.map(importSource), files: [], skipped: [], nav: null };
      } else {
        try {
          archive = await readArchive(new Uint8Array(await c.req.arrayBuffer()));
        } catch (error) {
          throw new AppError("bad_request", (error as Error).message);
        }
      }
      const report = await importArchive(deps, wikiId, archive, {
        author: c.get("credential").accountId,
        source: "api",
      });
      return c.json(report, 200);
    },
  );
}

/** A batch item as a source page: one that does not fit the page schema is reported, not fatal. */
function importSource(item: unknown, i: number): SourcePage {
  const name = `pages[${i}]`;
  const parsed = importPageSchema.safeParse(item);
  if (!parsed.success) return { name, error: 'needs "path" and "markdown" strings' };
  const { path: raw, markdown, title } = parsed.data;
  const path = cleanPath(raw);
  return path
    ? { name: `${name} ("${raw}")`, path, markdown, title }
    : { name, error: `has an invalid page path "${raw}"` };
}

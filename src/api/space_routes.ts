import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { HonoRequest } from "hono";
import { auditedSpace } from "../audit/record_audit.ts";
import { authorize, type Need } from "../access/access_policy.ts";
import type { Credential } from "../auth/credentials.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { importPages } from "../importer/import_pages.ts";
import { readZip, type SourcePage } from "../importer/read_sources.ts";
import { cleanPath } from "../markdown/paths.ts";
import { deletePage } from "../pages/rename_page.ts";
import { writePage } from "../pages/write_page.ts";
import { listSpaces, spaceListSchema } from "../wikis/list_spaces.ts";
import { pageUrl } from "../wikis/urls.ts";
import { registerReadRoutes } from "./read_routes.ts";
import { json, pageParams, problems, wikiIdParam } from "./schemas.ts";

/** Largest JSON batch of pages one import takes. */
const MAX_IMPORT_PAGES = 5_000;

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
});

/** The account token's routes: its spaces, their reads, page writes and imports. */
export function registerSpaceRoutes(app: OpenAPIHono, deps: Deps): void {
  const security = [{ bearer: [] }];
  const requireSpace = async (
    c: { get(key: "credential"): Credential },
    id: string,
    need: Need = "read",
  ) => auditedSpace((await authorize(deps, c.get("credential"), id, need, "rest")).wiki.id);

  app.openapi(
    createRoute({
      method: "get",
      path: "/spaces",
      tags: ["Spaces"],
      summary: "The spaces this account token reaches",
      security,
      responses: { 200: json(spaceListSchema, "The caller's spaces"), ...problems(401, 403) },
    }),
    async (c) => c.json(await listSpaces(deps, c.get("credential")), 200),
  );

  registerReadRoutes(app, deps, {
    base: "/spaces/{id}",
    tag: "Spaces",
    resolve: requireSpace,
    secured: true,
  });

  app.openapi(
    createRoute({
      method: "put",
      path: "/spaces/{id}/pages/{path}",
      tags: ["Spaces"],
      summary: "Create or update a page",
      description:
        "Send the markdown as `text/markdown`, or JSON `{markdown, title?}`. With `If-Match` (the " +
        "page's ETag, or `*`), the write happens only if the page is still at that revision (else 412).",
      security,
      request: {
        params: pageParams,
        body: {
          // Checked by the handler: the library would validate JSON even for markdown bodies.
          required: false,
          description: "Required: the page's markdown",
          content: {
            "text/markdown": { schema: z.string() },
            "application/json": {
              schema: z.object({ markdown: z.string(), title: z.string().optional() }),
            },
          },
        },
      },
      responses: {
        200: json(writeResult, "Updated, or unchanged"),
        201: json(writeResult, "Created"),
        ...problems(400, 401, 403, 404, 412, 413, 415),
      },
    }),
    async (c) => {
      const { id, path } = c.req.valid("param");
      const wikiId = await requireSpace(c, id, "write");
      const { markdown, title } = await readPageBody(c.req);
      const baseRevision = parseIfMatch(c.req.header("if-match"));
      const credential = c.get("credential");
      let outcome;
      try {
        outcome = await writePage(deps, { wikiId, path, markdown, title, baseRevision }, {
          author: credential.accountId,
          source: "api",
        });
      } catch (error) {
        if (error instanceof AppError && error.code === "revision_conflict") {
          throw new AppError("precondition_failed", error.detail, error.extra);
        }
        throw error;
      }
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

  app.openapi(
    createRoute({
      method: "delete",
      path: "/spaces/{id}/pages/{path}",
      tags: ["Spaces"],
      summary: "Delete a page (its history is kept)",
      security,
      request: { params: pageParams },
      responses: { 204: { description: "Deleted" }, ...problems(401, 403, 404, 412) },
    }),
    async (c) => {
      const { id, path } = c.req.valid("param");
      const wikiId = await requireSpace(c, id, "write");
      try {
        await deletePage(deps, {
          wikiId,
          path,
          baseRevision: parseIfMatch(c.req.header("if-match")),
        }, {
          author: c.get("credential").accountId,
          source: "api",
        });
      } catch (error) {
        if (error instanceof AppError && error.code === "revision_conflict") {
          throw new AppError("precondition_failed", error.detail, error.extra);
        }
        throw error;
      }
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/spaces/{id}/import",
      tags: ["Spaces"],
      summary: "Import pages: a zip of markdown files, or a JSON batch",
      description:
        "Each page is written on its own; unchanged pages are skipped; unreadable ones are reported.",
      security,
      request: {
        params: wikiIdParam,
        body: {
          required: false,
          description: "Required: a zip of markdown files, or a JSON batch",
          content: {
            "application/zip": { schema: z.string().openapi({ format: "binary" }) },
            "application/json": {
              // Items are checked one by one: a bad page is reported, not the whole batch refused.
              schema: z.object({
                pages: z.array(z.unknown()).openapi({
                  description: 'Pages as {"path": string, "title"?: string, "markdown": string}',
                }),
              }),
            },
          },
        },
      },
      responses: {
        200: json(importSummary, "What the import did"),
        ...problems(400, 401, 403, 404, 413, 415),
      },
    }),
    async (c) => {
      const wikiId = await requireSpace(c, c.req.valid("param").id, "write");
      const type = c.req.header("content-type") ?? "";
      let pages: SourcePage[];
      if (/^application\/(x-)?zip/i.test(type)) {
        try {
          pages = readZip(new Uint8Array(await c.req.arrayBuffer()));
        } catch (error) {
          throw new AppError("bad_request", (error as Error).message);
        }
      } else if (/^application\/json/i.test(type)) {
        const body = await readJson(c.req) as { pages?: unknown };
        if (!Array.isArray(body?.pages)) {
          throw new AppError("bad_request", 'Send {"pages": [{"path", "markdown"}]}');
        }
        if (body.pages.length > MAX_IMPORT_PAGES) {
          throw new AppError("payload_too_large", `At most ${MAX_IMPORT_PAGES} pages per import`);
        }
        pages = body.pages.map((p: Record<string, unknown>, i: number) => {
          const name = `pages[${i}]`;
          if (typeof p?.path !== "string" || typeof p?.markdown !== "string") {
            return { name, error: 'needs "path" and "markdown" strings' };
          }
          const path = cleanPath(p.path);
          return path
            ? {
              name: `${name} ("${p.path}")`,
              path,
              markdown: p.markdown,
              title: typeof p.title === "string" ? p.title : undefined,
            }
            : { name, error: `has an invalid page path "${p.path}"` };
        });
      } else {
        throw new AppError(
          "unsupported_media_type",
          `Send application/zip or application/json, not "${type || "nothing"}"`,
        );
      }
      const summary = await importPages(deps, wikiId, pages, {
        author: c.get("credential").accountId,
        source: "api",
      });
      return c.json(summary, 200);
    },
  );
}

/** `If-Match: "<id>-<revision>"` (our ETag), a bare revision, or `*` (any existing revision). */
function parseIfMatch(header: string | undefined): number | undefined {
  if (!header) return undefined;
  if (header.trim() === "*") return undefined;
  const m = /^(?:W\/)?"?(?:\d+-)?(\d+)"?$/.exec(header.trim());
  if (!m) throw new AppError("bad_request", `If-Match must be the page's ETag, not "${header}"`);
  return Number(m[1]);
}

async function readPageBody(request: HonoRequest): Promise<{ markdown: string; title?: string }> {
  const type = request.header("content-type") ?? "";
  if (/^text\/(markdown|plain)/i.test(type)) return { markdown: await request.text() };
  if (/^application\/json/i.test(type)) {
    const body = await readJson(request) as Record<string, unknown>;
    if (
      typeof body?.markdown !== "string" ||
      (body.title !== undefined && typeof body.title !== "string")
    ) {
      throw new AppError("bad_request", 'Send {"markdown": string, "title"?: string}');
    }
    return { markdown: body.markdown, title: body.title as string | undefined };
  }
  throw new AppError(
    "unsupported_media_type",
    `Send text/markdown or application/json, not "${type || "nothing"}"`,
  );
}

async function readJson(request: HonoRequest): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new AppError("invalid_json", "The body is not valid JSON");
  }
}

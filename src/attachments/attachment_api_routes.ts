import { createRoute, type OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { authorize, type Need } from "../access/access_policy.ts";
import { json, problems, wikiIdParam } from "../kit/rest/schemas.ts";
import { auditedSpace } from "../audit/record_audit.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { bodyLimit } from "../http/body_limit.ts";
import { matchesIfNoneMatch } from "../lib/etag.ts";
import { uploadFileNames } from "../spaces/upload_file_names.ts";
import {
  attachmentHref,
  deleteAttachment,
  MAX_ATTACHMENT_BYTES,
  saveAttachment,
} from "./attachments.ts";
import { fileHeaders } from "./file_headers.ts";
import {
  deleteAttachmentVersion,
  selectAttachment,
  selectAttachmentHeads,
  selectAttachmentVersion,
  selectVersionCounts,
} from "./mod.ts";

/** An upload's body: the file and the multipart framing around it. */
const UPLOAD_BODY_LIMIT = MAX_ATTACHMENT_BYTES + 64 * 1024;

const fileParams = wikiIdParam.extend({
  name: z.string().min(1).max(128).openapi({
    param: { name: "name", in: "path" },
    example: "chart.png",
  }),
});

const fileSchema = z.object({
  name: z.string(),
  href: z.string().openapi({ description: "Where the web app serves it (for markdown links)" }),
  content_type: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  created_at: z.string(),
  versions: z.number().int().openapi({
    description: "Earlier versions kept (by replaces and deletes)",
  }),
}).openapi("SpaceFile");

const savedSchema = z.object({
  name: z.string().openapi({ description: "The name it is stored under" }),
  href: z.string(),
  content_type: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  status: z.enum(["created", "renamed", "unchanged", "replaced"]).openapi({
    description: "`renamed`: the name held other bytes, so this file is kept beside it under " +
      "a suffixed name; `replaced` (with `replace=true`): the old bytes are kept as version " +
      "`replaced_version`",
  }),
  replaced_version: z.number().int().nullable(),
});

const binary = { schema: z.string().openapi({ format: "binary" }) };
const FILE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf"];

/**
 * REST for a space's files (`/spaces/{id}/files`): list, upload, read and delete, with the
 * web upload's limits (5 MB, PNG/JPEG/GIF/WebP/PDF recognised by content) and its rule that a
 * name is never overwritten silently.
 */
export function registerAttachmentApi(app: OpenAPIHono, deps: Deps): void {
  const security = [{ bearer: [] }];
  const requireSpace = async (c: Context, id: string, need: Need) =>
    auditedSpace(c, (await authorize(deps, c.get("credential"), id, need, "rest")).wiki.id);

  registerList(app, deps, requireSpace, security);
  registerUpload(app, deps, requireSpace, security);
  registerRead(app, deps, requireSpace, security);
  registerDelete(app, deps, requireSpace, security);
}

/** `GET /spaces/{id}/files`: the files, newest first, with their version counts. */
function registerList(
  app: OpenAPIHono,
  deps: Deps,
  requireSpace: (c: Context, id: string, need: Need) => Promise<string>,
  security: RouteConfig["security"],
): void {
  app.openapi(
    createRoute({
      method: "get",
      path: "/spaces/{id}/files",
      operationId: "listSpaceFiles",
      tags: ["Files"],
      summary: "The space's files (images and PDFs), newest first",
      security,
      request: { params: wikiIdParam },
      responses: {
        200: json(z.object({ files: z.array(fileSchema) }), "The files"),
        ...problems(401, 403, 404),
      },
    }),
    async (c) => {
      const wikiId = await requireSpace(c, c.req.valid("param").id, "read");
      const [files, versions] = await Promise.all([
        selectAttachmentHeads(deps.db, wikiId, 1000),
        selectVersionCounts(deps.db, wikiId),
      ]);
      return c.json({
        files: files.map((f) => ({
          name: f.name,
          href: attachmentHref(wikiId, f.name),
          content_type: f.content_type,
          size: Number(f.size),
          sha256: f.sha256,
          created_at: new Date(f.created_at).toISOString(),
          versions: versions.get(f.name) ?? 0,
        })),
      }, 200);
    },
  );
}

/** `GET /spaces/{id}/files/{name}`: a file's bytes, or an earlier version's, with its ETag. */
function registerRead(
  app: OpenAPIHono,
  deps: Deps,
  requireSpace: (c: Context, id: string, need: Need) => Promise<string>,
  security: RouteConfig["security"],
): void {
  app.openapi(
    createRoute({
      method: "get",
      path: "/spaces/{id}/files/{name}",
      operationId: "getSpaceFile",
      tags: ["Files"],
      summary: "A file's bytes (or an earlier version's)",
      security,
      request: {
        params: fileParams,
        query: z.object({
          version: z.coerce.number().int().min(1).max(2_147_483_647).optional().openapi({
            description: "An earlier version, kept by a replace or a delete",
          }),
        }),
      },
      responses: {
        200: {
          description: "The file, with its stored type and an ETag",
          content: Object.fromEntries(FILE_TYPES.map((t) => [t, binary])),
        },
        304: { description: "Not modified: the ETag in If-None-Match" },
        ...problems(400, 401, 403, 404),
      },
    }),
    async (c) => {
      const { id, name } = c.req.valid("param");
      const { version } = c.req.valid("query");
      const wikiId = await requireSpace(c, id, "read");
      const file = version === undefined
        ? await selectAttachment(deps.db, wikiId, name)
        : await selectAttachmentVersion(deps.db, wikiId, name, version);
      if (!file) {
        const which = version === undefined ? "" : ` at version ${version}`;
        throw new AppError("not_found", `No file "${name}"${which} in space "${wikiId}"`);
      }
      const headers = fileHeaders(file, false);
      if (matchesIfNoneMatch(c.req.header("if-none-match"), headers.ETag!)) {
        return c.body(null, 304, headers);
      }
      return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200, headers);
    },
  );
}

/**
 * `DELETE /spaces/{id}/files/{name}`: the bytes are kept as an earlier version; with
 * `?version=N`, that earlier version is deleted for good (admins: it frees the space's quota).
 */
function registerDelete(
  app: OpenAPIHono,
  deps: Deps,
  requireSpace: (c: Context, id: string, need: Need) => Promise<string>,
  security: RouteConfig["security"],
): void {
  app.openapi(
    createRoute({
      method: "delete",
      path: "/spaces/{id}/files/{name}",
      operationId: "deleteSpaceFile",
      tags: ["Files"],
      summary: "Delete a file (its bytes are kept as an earlier version)",
      description: "With `version=N`, deletes that earlier version for good instead (owners " +
        "and admins): earlier versions count against the space's bytes quota.",
      security,
      request: {
        params: fileParams,
        query: z.object({
          version: z.coerce.number().int().min(1).max(2_147_483_647).optional().openapi({
            description: "An earlier version to delete for good",
          }),
        }),
      },
      responses: { 204: { description: "Deleted" }, ...problems(400, 401, 403, 404) },
    }),
    async (c) => {
      const { id, name } = c.req.valid("param");
      const { version } = c.req.valid("query");
      if (version !== undefined) {
        const wikiId = await requireSpace(c, id, "admin");
        if (!await deleteAttachmentVersion(deps.db, wikiId, name, version)) {
          throw new AppError(
            "not_found",
            `No version ${version} of file "${name}" in space "${wikiId}"`,
          );
        }
        return c.body(null, 204);
      }
      const wikiId = await requireSpace(c, id, "write");
      if (!await deleteAttachment(deps, wikiId, name, c.get("credential").accountId)) {
        throw new AppError("not_found", `No file "${name}" in space "${wikiId}"`);
      }
      return c.body(null, 204);
    },
  );
}

function registerUpload(
  app: OpenAPIHono,
  deps: Deps,
  requireSpace: (c: Context, id: string, need: Need) => Promise<string>,
  security: RouteConfig["security"],
): void {
  const route = createRoute({
    method: "post",
    path: "/spaces/{id}/files",
    operationId: "uploadSpaceFile",
    tags: ["Files"],
    summary: "Upload a file (multipart `file`); a taken name is kept, never overwritten",
    description: "PNG, JPEG, GIF or WebP images and PDFs up to 5 MB, recognised by their " +
      "content (SVG is refused). When the name holds other bytes the file is stored under a " +
      "suffixed name (`image-2.png`, status `renamed`); the same bytes again are `unchanged`. " +
      "With `replace=true` the file of that name is replaced and its old bytes kept as an " +
      "earlier version (`GET …/files/{name}?version=N`).",
    security,
    middleware: [bodyLimit(UPLOAD_BODY_LIMIT)],
    request: { params: wikiIdParam },
    responses: {
      201: json(savedSchema, "Stored"),
      ...problems(400, 401, 403, 404, 409, 413, 415),
    },
  });
  const { middleware: _middleware, ...documented } = route;
  app.openAPIRegistry.registerPath({
    ...documented,
    request: {
      ...route.request,
      body: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: z.object({
              file: z.string().openapi({ format: "binary" }),
              replace: z.enum(["true", "false"]).optional(),
            }),
          },
        },
      },
    },
  });
  // The body is read here (no validator of the form): the names as sent come from the raw
  // body, since `formData()` cuts a quoted file name at its first `=`.
  app.openapi({ ...route, hide: true }, async (c) => {
    const wikiId = await requireSpace(c, c.req.valid("param").id, "write");
    const type = c.req.header("content-type") ?? "";
    if (!/^multipart\/form-data/i.test(type)) {
      throw new AppError(
        "unsupported_media_type",
        `Send the file as multipart/form-data (field "file"), not "${type || "nothing"}"`,
      );
    }
    const form = await c.req.parseBody();
    const file = form.file;
    if (!(file instanceof File)) throw new AppError("bad_request", 'Send the file in field "file"');
    const [sent] = uploadFileNames(await c.req.bytes(), type, "file");
    const saved = await saveAttachment(deps, {
      wikiId,
      fileName: sent || file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
      accountId: c.get("credential").accountId,
      replace: form.replace === "true",
    });
    return c.json({
      name: saved.name,
      href: saved.href,
      content_type: saved.contentType,
      size: saved.size,
      sha256: saved.sha256,
      status: saved.status,
      replaced_version: saved.replacedVersion,
    }, 201);
  });
}

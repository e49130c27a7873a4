import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { json, problems, wikiIdParam } from "../kit/rest/schemas.ts";
import { auditedSpace } from "../audit/record_audit.ts";
import { authorize } from "../access/access_policy.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import {
  deleteVersion,
  LATEST,
  listVersions,
  publishVersion,
  renameVersion,
  setDefaultVersion,
  setVersionPattern,
  versionListSchema,
  versionSchema,
} from "./versions.ts";
import { selectVersionPattern } from "./mod.ts";

const versionParams = wikiIdParam.extend({
  name: z.string().min(1).max(64).openapi({
    param: { name: "name", in: "path" },
    example: "v2.1",
  }),
});

const listSchema = versionListSchema.extend({
  pattern: z.string().nullable().describe(
    "The Git refs a sync publishes as versions (`v*`: tags; `branches/release-*`: branches)",
  ),
}).openapi("VersionList");

const publishBody = z.object({
  name: z.string().min(1).max(64).openapi({ example: "v2.1" }),
  default: z.boolean().optional().openapi({
    description: "Also make it the version reads get when they name none",
  }),
}).openapi("VersionPublish");

const changeBody = z.object({
  name: z.string().min(1).max(64).optional().openapi({ description: "A new name" }),
  default: z.boolean().optional().openapi({
    description: 'true: reads get this version when they name none; false: back to "latest"',
  }),
}).openapi("VersionChange");

const settingsBody = z.object({
  default: z.string().min(1).max(64).optional().openapi({
    description: 'The default version\'s name, or "latest" for the live pages',
  }),
  pattern: z.string().max(200).nullable().optional().openapi({
    description: "The Git refs a sync publishes as versions, e.g. `v*`; null: none",
  }),
}).openapi("VersionSettings");

const security = [{ bearer: [] }];

/** The space of a version route, for reading or (admin) changing its versions; audited. */
async function requireSpace(deps: Deps, c: Context, id: string, admin: boolean) {
  return auditedSpace(
    c,
    (await authorize(
      deps,
      c.get("credential"),
      id,
      admin ? "admin" : "read",
      "rest",
      admin ? "change its versions" : undefined,
    )).wiki.id,
  );
}

/** The versions of a space with its Git pattern, as the routes answer them. */
async function listOf(deps: Deps, wikiId: string) {
  return {
    ...await listVersions(deps.db, wikiId),
    pattern: await selectVersionPattern(deps.db, wikiId),
  };
}

/**
 * REST for versions of a space: list them (readers), publish the live pages as a version,
 * rename one, make one the default, delete one and set the Git pattern (owners and admins).
 */
export function registerVersionRoutes(app: OpenAPIHono, deps: Deps): void {
  registerList(app, deps);
  registerPublish(app, deps);
  registerSettings(app, deps);
  registerChange(app, deps);
  registerDelete(app, deps);
}

/** `GET /spaces/{id}/versions`: the versions, newest first, and the default. */
function registerList(app: OpenAPIHono, deps: Deps): void {
  app.openapi(
    createRoute({
      method: "get",
      path: "/spaces/{id}/versions",
      operationId: "listVersions",
      tags: ["Versions"],
      summary: "The space's versions, newest first, and its default",
      security,
      request: { params: wikiIdParam },
      responses: { 200: json(listSchema, "The versions"), ...problems(401, 403, 404) },
    }),
    async (c) =>
      c.json(await listOf(deps, await requireSpace(deps, c, c.req.valid("param").id, false)), 200),
  );
}

/** `POST /spaces/{id}/versions`: the live pages published as a named version. */
function registerPublish(app: OpenAPIHono, deps: Deps): void {
  app.openapi(
    createRoute({
      method: "post",
      path: "/spaces/{id}/versions",
      operationId: "publishVersion",
      tags: ["Versions"],
      summary: "Publish the live pages as a named version (a snapshot; nothing is copied)",
      security,
      request: {
        params: wikiIdParam,
        body: { content: { "application/json": { schema: publishBody } }, required: true },
      },
      responses: {
        201: json(versionSchema, "Published"),
        ...problems(400, 401, 403, 404, 409),
      },
    }),
    async (c) => {
      const wikiId = await requireSpace(deps, c, c.req.valid("param").id, true);
      const body = c.req.valid("json");
      const by = c.get("credential")?.accountId ?? null;
      const out = await publishVersion(deps.db, wikiId, { name: body.name }, by);
      if (body.default) await setDefaultVersion(deps.db, wikiId, out.name);
      return c.json({ ...out, default: body.default === true }, 201);
    },
  );
}

/** `PATCH /spaces/{id}/versions`: the default version and the Git pattern. */
function registerSettings(app: OpenAPIHono, deps: Deps): void {
  app.openapi(
    createRoute({
      method: "patch",
      path: "/spaces/{id}/versions",
      operationId: "changeVersionSettings",
      tags: ["Versions"],
      summary: "Choose the default version and the Git refs a sync publishes",
      security,
      request: {
        params: wikiIdParam,
        body: { content: { "application/json": { schema: settingsBody } }, required: true },
      },
      responses: { 200: json(listSchema, "Changed"), ...problems(400, 401, 403, 404) },
    }),
    async (c) => {
      const wikiId = await requireSpace(deps, c, c.req.valid("param").id, true);
      const body = c.req.valid("json");
      if (body.default !== undefined) await setDefaultVersion(deps.db, wikiId, body.default);
      if (body.pattern !== undefined) {
        await setVersionPattern(deps.db, wikiId, body.pattern ?? null);
      }
      return c.json(await listOf(deps, wikiId), 200);
    },
  );
}

/** `PATCH /spaces/{id}/versions/{name}`: rename a version, or (un)make it the default. */
function registerChange(app: OpenAPIHono, deps: Deps): void {
  app.openapi(
    createRoute({
      method: "patch",
      path: "/spaces/{id}/versions/{name}",
      operationId: "changeVersion",
      tags: ["Versions"],
      summary: "Rename a version, or make it (or stop it being) the default",
      security,
      request: {
        params: versionParams,
        body: { content: { "application/json": { schema: changeBody } }, required: true },
      },
      responses: { 200: json(listSchema, "Changed"), ...problems(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const { id, name } = c.req.valid("param");
      const wikiId = await requireSpace(deps, c, id, true);
      const body = c.req.valid("json");
      if (body.name === undefined && body.default === undefined) {
        throw new AppError("bad_request", "Say what to change: `name` or `default`");
      }
      let current = name;
      if (body.name !== undefined && body.name !== name) {
        await renameVersion(deps.db, wikiId, name, body.name);
        current = body.name;
      }
      if (body.default === true) await setDefaultVersion(deps.db, wikiId, current);
      if (body.default === false) {
        const list = await listVersions(deps.db, wikiId);
        if (list.default.toLowerCase() === current.toLowerCase()) {
          await setDefaultVersion(deps.db, wikiId, LATEST);
        }
      }
      return c.json(await listOf(deps, wikiId), 200);
    },
  );
}

/** `DELETE /spaces/{id}/versions/{name}`: the pages stay. */
function registerDelete(app: OpenAPIHono, deps: Deps): void {
  app.openapi(
    createRoute({
      method: "delete",
      path: "/spaces/{id}/versions/{name}",
      operationId: "deleteVersion",
      tags: ["Versions"],
      summary: "Delete a version (its pages stay; the default version cannot be deleted)",
      security,
      request: { params: versionParams },
      responses: { 204: { description: "Deleted" }, ...problems(401, 403, 404, 409) },
    }),
    async (c) => {
      const { id, name } = c.req.valid("param");
      await deleteVersion(deps.db, await requireSpace(deps, c, id, true), name);
      return c.body(null, 204);
    },
  );
}

import { requireJson, REST_BODY_LIMIT } from "../kit/rest/rest_edges.ts";
import { bodyLimit } from "../http/body_limit.ts";
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ANONYMOUS, authorize } from "../access/access_policy.ts";
import type { Deps } from "../deps.ts";
import { json, problems, wikiIdParam } from "../kit/rest/schemas.ts";
import { clientIp } from "../http/client_ip.ts";
import { proposeEdit, proposeInput, proposeOutput } from "./propose_edit.ts";
import { reportInput, reportOutput, reportProblem } from "./report_problem.ts";

const security = [{ bearer: [] }];
const body = <S>(schema: S) => ({
  required: true,
  content: { "application/json": { schema } },
});

/**
 * REST for agents' feedback, sharing the feature functions with MCP: reports on a public wiki
 * (anonymous) or a space (account token), and proposed edits to a space.
 */
export function registerFeedbackApi(app: OpenAPIHono, deps: Deps): void {
  registerPublicReport(app, deps);
  registerSpaceReport(app, deps);
  registerProposal(app, deps);
}

/** `POST /public/wikis/{id}/reports`: an anonymous report on a public wiki. */
function registerPublicReport(app: OpenAPIHono, deps: Deps): void {
  app.openapi(
    createRoute({
      method: "post",
      path: "/public/wikis/{id}/reports",
      operationId: "reportPublicWikiProblem",
      middleware: [bodyLimit(REST_BODY_LIMIT), requireJson()],
      tags: ["Public wikis"],
      summary: "Report a problem with a page, anonymously",
      description: "A small budget of reports per address and hour, apart from the request budget.",
      request: { params: wikiIdParam, body: body(reportInput) },
      responses: { 201: json(reportOutput, "The report, stored"), ...problems(400, 404, 429) },
    }),
    async (c) => {
      const wiki =
        (await authorize(deps, ANONYMOUS, c.req.valid("param").id, "read", "rest")).wiki.id;
      const sender = {
        accountId: null,
        credentialKind: null,
        credentialId: null,
        clientName: agent(c),
      };
      const out = await reportProblem(deps, wiki, c.req.valid("json"), sender, callerKey(c, deps));
      return c.json(out, 201);
    },
  );
}

/** `POST /spaces/{id}/reports`: a report on a page of a space, with the caller's credential. */
function registerSpaceReport(app: OpenAPIHono, deps: Deps): void {
  app.openapi(
    createRoute({
      method: "post",
      path: "/spaces/{id}/reports",
      operationId: "reportSpaceProblem",
      middleware: [bodyLimit(REST_BODY_LIMIT), requireJson()],
      tags: ["Spaces"],
      summary: "Report a problem with a page of a space",
      security,
      request: { params: wikiIdParam, body: body(reportInput) },
      responses: {
        201: json(reportOutput, "The report, stored"),
        ...problems(400, 401, 403, 404, 429),
      },
    }),
    async (c) => {
      const space = await requireOwnSpace(c, deps, c.req.valid("param").id);
      const credential = c.get("credential");
      const sender = {
        accountId: credential.accountId,
        credentialKind: credential.kind,
        credentialId: credential.id,
        clientName: agent(c),
      };
      const out = await reportProblem(
        deps,
        space,
        c.req.valid("json"),
        sender,
        `account:${credential.accountId}`,
      );
      return c.json(out, 201);
    },
  );
}

/** `POST /spaces/{id}/proposals`: a proposed edit, waiting for review. */
function registerProposal(app: OpenAPIHono, deps: Deps): void {
  app.openapi(
    createRoute({
      method: "post",
      path: "/spaces/{id}/proposals",
      operationId: "proposeSpaceEdit",
      middleware: [bodyLimit(REST_BODY_LIMIT), requireJson()],
      tags: ["Spaces"],
      summary: "Propose an edit for review",
      description:
        "Needs an account token with the `read_propose` scope and a space that takes proposals. " +
        "The proposal waits for an owner or admin to accept, edit or decline it in the web app.",
      security,
      request: { params: wikiIdParam, body: body(proposeInput) },
      responses: {
        201: json(proposeOutput, "The change request (or the write, with direct writes)"),
        ...problems(400, 401, 403, 404, 409),
      },
    }),
    async (c) => {
      const space = await requireOwnSpace(c, deps, c.req.valid("param").id);
      const out = await proposeEdit(deps, space, c.req.valid("json"), {
        credential: c.get("credential"),
        clientName: agent(c),
      });
      return c.json(out, 201);
    },
  );
}

async function requireOwnSpace(c: Context, deps: Deps, id: string): Promise<string> {
  return (await authorize(deps, c.get("credential"), id, "read", "rest")).wiki.id;
}

function agent(c: Context): string | null {
  return c.req.header("user-agent")?.slice(0, 200) ?? null;
}

function callerKey(c: Context, deps: Deps): string {
  // A shared-egress pool is many people: count their reports by address instead.
  const key = c.get("rateLimit")?.key;
  return key && !key.startsWith("shared:") ? key : `ip:${clientIp(c, deps.config)}`;
}

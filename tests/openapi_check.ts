/**
 * Checks REST responses against the served OpenAPI document (issue 17: "every REST response
 * in the suite validates against the document"). `testApp` wraps `app.request` with it, so
 * every `/api/v1` response a test receives is checked: its status is documented for the
 * operation, its Content-Type is one the status documents, and a JSON body matches the
 * schema (JSON Schema 2020-12, as OpenAPI 3.1 uses). A mismatch throws, failing the test.
 * Dev-only: ajv is imported from tests alone.
 */
import { Ajv2020, type ValidateFunction } from "npm:ajv@8.20.0/dist/2020.js";
import addFormats from "npm:ajv-formats@3.0.1";
import type { Hono } from "hono";

type Json = Record<string, unknown>;
type Operation = { responses: Record<string, { content?: Record<string, { schema?: Json }> }> };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Json };
};

/** One checker per document text: the app's document is the same across a test file. */
const checkers = new Map<string, Checker>();

/** What is checked of a response: status, media type (no parameters) and body text. */
type Seen = { status: number; type: string; body: string };
type Checker = (method: string, path: string, seen: Seen) => void;

/**
 * Makes `app.request` check each `/api/v1` response against the document `documentApp` serves
 * (the same app over no database: reading the document must neither spend a test's budget nor
 * fail when a test has closed its database). Defaults to `app` itself.
 */
export function checkRestResponses(app: Hono, documentApp: () => Hono = () => app): Hono {
  const request = app.request.bind(app);
  let checker: Promise<Checker> | undefined;
  app.request = (async (input: Request | string | URL, init?: RequestInit, ...rest: unknown[]) => {
    const res = await (request as (...a: unknown[]) => Promise<Response>)(input, init, ...rest);
    const url = new URL(input instanceof Request ? input.url : String(input), "http://wiki.test");
    const method = (input instanceof Request ? input.method : init?.method ?? "GET").toLowerCase();
    if (
      !url.pathname.startsWith("/api/v1/") || /^\/api\/v1\/(openapi\.json|docs)$/.test(url.pathname)
    ) {
      return res;
    }
    checker ??= (async () => {
      const res = await documentApp().request("/api/v1/openapi.json");
      if (res.status !== 200) throw new Error(`The document answered ${res.status}`);
      const text = await res.text();
      if (!checkers.has(text)) checkers.set(text, buildChecker(JSON.parse(text)));
      return checkers.get(text)!;
    })();
    // Read the headers from the response itself: a clone of Hono's may not carry them.
    const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const body = await res.clone().text();
    (await checker)(method, url.pathname.slice("/api/v1".length), {
      status: res.status,
      type,
      body,
    });
    return res;
  }) as typeof app.request;
  return app;
}

function buildChecker(doc: Document): Checker {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  // Only the schemas: the rest of the document (security schemes…) is not JSON Schema.
  ajv.addSchema({ components: { schemas: doc.components?.schemas ?? {} } }, "doc");
  const compiled = new Map<Json, ValidateFunction>();
  const compile = (schema: Json) => {
    if (!compiled.has(schema)) {
      const text = JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/');
      compiled.set(schema, ajv.compile(JSON.parse(text)));
    }
    return compiled.get(schema)!;
  };
  const routes = Object.entries(doc.paths).map(([template, ops]) => ({
    template,
    ops,
    pattern: new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`,
    ),
  }));
  return (method, path, { status, type, body }) => {
    // Templates are anchored and `{x}` is one segment: at most one operation matches.
    const route = routes.find((r) => r.pattern.test(path) && r.ops[method]);
    if (!route) {
      // No operation: only the app's 404 for an unknown route may answer it; anything else is
      // a route the document does not describe.
      if (status !== 404 && path.startsWith("/api/v1/")) {
        throw new Error(`${method.toUpperCase()} ${path} → ${status}: not in the OpenAPI document`);
      }
      return;
    }
    const op = route.ops[method]!;
    const where = `${method.toUpperCase()} ${route.template} → ${status}`;
    const response = op.responses[String(status)] ?? op.responses.default;
    if (!response) throw new Error(`${where}: status not documented`);
    if (!response.content || status === 204 || status === 304) {
      if (body.length > 0) {
        throw new Error(`${where}: a ${type} body where the document has none`);
      }
      return;
    }
    const media = response.content[type];
    if (!media) {
      throw new Error(
        `${where}: Content-Type "${type}" not documented (${Object.keys(response.content)})`,
      );
    }
    if (!/json$/.test(type) || !media.schema) return;
    const validate = compile(media.schema);
    const json = JSON.parse(body);
    if (!validate(json)) {
      throw new Error(
        `${where}: body does not match the document: ${ajv.errorsText(validate.errors)}\n` +
          body.slice(0, 500),
      );
    }
  };
}

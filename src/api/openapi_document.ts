/**
 * What every operation of the REST API may answer besides its own responses, added to the
 * generated document so it lists every status a client can see (Schemathesis checks this):
 *
 * - 400: a path or query value outside its schema (an odd id, a malformed `%` escape);
 * - 414 / 431: too long a URL, too many or too large headers (`src/http/request_limits.ts`);
 * - 429: the request budget spent (`src/limits/rate_limit.ts`), with `Retry-After`;
 * - 500: a bug (a bare problem with the request id);
 * - 503: the database unavailable or the request past its timeout, with `Retry-After` on the
 *   first.
 *
 * Every response carries the budget headers (draft-ietf-httpapi-ratelimit-headers) once the
 * limiter has counted the request; a 414 or 431 is refused before, so the headers are
 * optional in the document.
 */
const COMMON: Record<string, string> = {
  "400": "Invalid input: a path, query or body value outside its schema",
  "414": "The URL is too long",
  "429": "Too many requests: the budget of this credential or address is spent",
  "431": "Too many or too large request headers",
  "500": "Internal error (the body names the request id, nothing of the cause)",
  "503": "The database is unavailable, or the request ran past its timeout",
};

import { addExamples } from "./openapi_examples.ts";

type Json = Record<string, unknown>;
type Operation = { security?: unknown[]; responses: Record<string, Json> };

/** Headers every response may carry; `Retry-After` on 429 and 503. */
const HEADERS = {
  RateLimit: {
    description: 'What is left of the budget: `"<name>";r=<remaining>;t=<seconds to reset>`',
    schema: { type: "string", example: '"anon";r=599;t=60' },
  },
  "RateLimit-Policy": {
    description: 'The budget: `"<name>";q=<requests>;w=<window seconds>`',
    schema: { type: "string", example: '"anon";q=600;w=60' },
  },
  "Retry-After": {
    description: "Seconds to wait before trying again",
    schema: { type: "integer", minimum: 1 },
  },
};

/**
 * Completes the generated OpenAPI 3.1 document: the common error responses (problem+json) on
 * every operation, the rate-limit headers on every response, and `security: []` on the public
 * operations (they need no credential; without it a linter reads them as unspecified), and an
 * example on each JSON request and success response that lacks one (`addExamples`).
 */
export function completeDocument<D extends { paths?: unknown; components?: unknown }>(doc: D): D {
  const components = (doc.components ?? {}) as Json;
  components.headers = { ...(components.headers as Json | undefined), ...HEADERS };
  (doc as Json).components = components;
  const problem = {
    "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } },
  };
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
  for (const ops of Object.values((doc.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const op of Object.values(ops)) {
      op.security ??= [];
      for (const [status, description] of Object.entries(COMMON)) {
        op.responses[status] ??= { description, content: problem };
      }
      for (const [status, response] of Object.entries(op.responses)) {
        const headers: Json = {
          RateLimit: ref("RateLimit"),
          "RateLimit-Policy": ref("RateLimit-Policy"),
        };
        if (status === "429" || status === "503") headers["Retry-After"] = ref("Retry-After");
        response.headers = { ...(response.headers as Json | undefined), ...headers };
      }
    }
  }
  return addExamples(doc);
}

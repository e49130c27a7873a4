import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Deps } from "../deps.ts";
import { pageHeaders } from "../kit/web/page_headers.ts";
import { completeDocument } from "./openapi_document.ts";
import { ApiReferencePage } from "./reference_page.tsx";

/**
 * Serves the OpenAPI 3.1 document of every route registered on `app` so far, at
 * `/openapi.json`, and its human-readable reference at `/docs`.
 */
export function serveDocument(app: OpenAPIHono, deps: Deps): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "An account token (wk_acct_…); space tokens work on MCP only",
  });
  // Built once, on first request: nothing in it changes while the process runs.
  let built: ReturnType<typeof completeDocument> | undefined;
  let reference: string | undefined;
  const document = () =>
    built ??= completeDocument(app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "Knowledge wiki REST API",
        version: "1.0.0",
        // The project declares no licence yet: say so (npm's word for it) rather than guess one.
        // OpenAPI 3.1 wants an SPDX identifier or a URL; `LicenseRef-` is SPDX's form for a
        // licence of one's own. (The library's type is 3.0's, which has no `identifier`.)
        license: { name: "UNLICENSED", identifier: "LicenseRef-UNLICENSED" } as { name: string },
        description:
          "Public wikis without credentials; your spaces with an account token. Errors are " +
          "application/problem+json with a stable `code` and the request id. Every response " +
          "carries the request budget (`RateLimit`, `RateLimit-Policy`); a 429 says when to retry.",
      },
      servers: [{ url: `${deps.config.baseUrl}/api/v1` }],
    }));
  app.get("/openapi.json", (c) => c.json(document()));
  // The page reads the document as JSON does (plain data, no generator types). Its headers are
  // the web app's: no framing, and a CSP with scripts from our own origin only, never inline.
  app.get(
    "/docs",
    pageHeaders(),
    async (c) =>
      c.html(
        reference ??= await ApiReferencePage({ spec: JSON.parse(JSON.stringify(document())) })
          .toString(),
      ),
  );
}

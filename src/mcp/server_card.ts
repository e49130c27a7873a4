import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { mcpResource } from "../oauth/resource.ts";
import { SUPPORTED_SCOPES } from "../oauth/scopes.ts";
import { PROTOCOL_VERSIONS, SERVER_INFO } from "./server_info.ts";

/** `/.well-known/mcp`: a server card listing the MCP endpoints, their auth and their tools. */
export function serverCardRoutes(deps: Deps): Hono {
  const app = new Hono();
  app.get("/.well-known/mcp", (c) => {
    const base = deps.config.baseUrl;
    const read = ["search", "fetch", "get_page", "list_pages", "neighbors", "ask"];
    return c.json(
      {
        name: SERVER_INFO.name,
        version: SERVER_INFO.version,
        description: "Public wikis and private spaces for AI assistants",
        documentation: `${base}/w/docs`,
        transport: "streamable-http",
        endpoints: [
          {
            url: `${base}/mcp/hub/`,
            scope: "all public wikis",
            auth: "none",
            tools: ["list_wikis", ...read, "report_problem"],
          },
          {
            url: `${base}/mcp/w/{id}/`,
            scope: "one public wiki",
            auth: "none",
            tools: [...read, "report_problem"],
          },
          {
            url: `${base}/mcp/`,
            scope: "the caller's private spaces",
            auth: "oauth2 or bearer (account or space token)",
            // MCP authorization: discovery starts at the protected-resource metadata (RFC 9728).
            authorization: {
              type: "oauth2",
              resource: mcpResource(base),
              protected_resource_metadata: `${base}/.well-known/oauth-protected-resource/mcp`,
              authorization_servers: [base],
              scopes: [...SUPPORTED_SCOPES],
            },
            tools: ["my_spaces", ...read, "confirm_use", "report_problem", "propose_edit"],
          },
        ],
        protocol_versions: [...PROTOCOL_VERSIONS],
        ...(deps.config.operatorContact ? { contact: deps.config.operatorContact } : {}),
      },
      200,
      { "Cache-Control": "public, max-age=300" },
    );
  });
  return app;
}

import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { SERVER_INFO } from "./server_info.ts";

/** The Server Card media type (SEP-2127). */
export const SERVER_CARD_TYPE = "application/mcp-server-card+json";

/** The endpoints a card can describe: the hub, one public wiki, the private endpoint. */
export type CardEndpoint = { kind: "hub" } | { kind: "wiki"; id: string } | { kind: "private" };

/** Where an endpoint's MCP URL is (with its trailing slash, as clients are told). */
export function endpointUrl(base: string, endpoint: CardEndpoint): string {
  if (endpoint.kind === "hub") return `${base}/mcp/hub/`;
  if (endpoint.kind === "wiki") return `${base}/mcp/w/${endpoint.id}/`;
  return `${base}/mcp/`;
}

/**
 * A Server Card (SEP-2127, `experimental-ext-server-card` schema v2): identity and where to
 * connect, nothing else; tools, resources and skills are listed at runtime. Hosted at
 * `<streamable-http-url>/server-card`, the location the extension reserves.
 */
export function serverCard(base: string, endpoint: CardEndpoint): Record<string, unknown> {
  const host = new URL(base).hostname.split(".").reverse().join(".") || "local";
  const what = {
    hub: { name: "hub", title: "Public wikis", description: "Search and read every public wiki" },
    wiki: {
      name: `wiki-${endpoint.kind === "wiki" ? endpoint.id : ""}`,
      title: `Wiki ${endpoint.kind === "wiki" ? endpoint.id : ""}`,
      description: "Search and read one public wiki",
    },
    private: {
      name: "spaces",
      title: "My spaces",
      description: "Search, read, report on and propose edits to your private spaces",
    },
  }[endpoint.kind];
  return {
    $schema: "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json",
    name: `${host}/${what.name}`.slice(0, 200),
    version: SERVER_INFO.version,
    description: what.description,
    title: what.title,
    websiteUrl: `${base}/w/docs`,
    remotes: [{
      type: "streamable-http",
      url: endpointUrl(base, endpoint),
      ...(endpoint.kind === "private"
        ? {
          headers: [{
            name: "Authorization",
            description: "Bearer <account or space token>, or sign in with OAuth",
            isRequired: true,
            isSecret: true,
          }],
        }
        : {}),
    }],
  };
}

/** The MCP Catalog of this server (SEP-2127 discovery): one entry per endpoint's card. */
function catalog(base: string): Record<string, unknown> {
  const host = new URL(base).hostname;
  const entry = (name: string, displayName: string, url: string) => ({
    identifier: `urn:air:${host}:${name}`,
    displayName,
    type: SERVER_CARD_TYPE,
    url,
  });
  return {
    specVersion: "draft",
    entries: [
      entry("hub", "Public wikis", `${base}/mcp/hub/server-card`),
      entry("spaces", "My spaces", `${base}/mcp/server-card`),
    ],
  };
}

/**
 * The Server Cards at `<endpoint>/server-card`, the MCP Catalog at
 * `/.well-known/mcp/catalog.json`, and the hub's card at `/.well-known/mcp/server-card.json`
 * too, where earlier drafts (SEP-1649) told clients to look.
 */
export function serverCardsRoutes(deps: Deps): Hono {
  const app = new Hono();
  const headers = {
    "Cache-Control": "public, max-age=3600",
    "Access-Control-Allow-Origin": "*",
    "Content-Type": SERVER_CARD_TYPE,
  };
  const card = (endpoint: CardEndpoint) =>
    new Response(JSON.stringify(serverCard(deps.config.baseUrl, endpoint)), { headers });
  app.get("/.well-known/mcp/catalog.json", (c) =>
    c.json(catalog(deps.config.baseUrl), 200, {
      "Cache-Control": "public, max-age=3600",
      "Access-Control-Allow-Origin": "*",
    }));
  app.get("/.well-known/mcp/server-card.json", () => card({ kind: "hub" }));
  app.get("/mcp/hub/server-card", () => card({ kind: "hub" }));
  app.get("/mcp/server-card", () => card({ kind: "private" }));
  app.get("/mcp/w/:id/server-card", (c) => card({ kind: "wiki", id: c.req.param("id") }));
  return app;
}

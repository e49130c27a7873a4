/** The service's name and version as MCP servers announce them. */
export const SERVER_INFO = { name: "knowledge-wiki", version: "0.1.0" };

/** The MCP protocol revisions every endpoint serves, newest first. */
export const PROTOCOL_VERSIONS = ["2026-07-28", "2025-11-25"] as const;

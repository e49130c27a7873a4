/** The one protected resource of this authorization server: the private MCP endpoint. */
export function mcpResource(baseUrl: string): string {
  return `${baseUrl}/mcp`;
}

/**
 * The canonical resource (RFC 8707) for a `resource` parameter: our origin or `/mcp`, with or
 * without a trailing slash (clients differ), all mean `${baseUrl}/mcp`; absent means it too
 * (older clients omit it). Null for anything else, to be answered with `invalid_target`.
 */
export function canonicalResource(baseUrl: string, given: string | undefined): string | null {
  const canonical = mcpResource(baseUrl);
  if (given === undefined) return canonical;
  if (given.includes("#") || given.includes("?")) return null;
  const trimmed = given.endsWith("/") ? given.slice(0, -1) : given;
  return trimmed === baseUrl || trimmed === canonical ? canonical : null;
}

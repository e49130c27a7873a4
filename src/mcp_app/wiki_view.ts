import type { McpServer } from "@modelcontextprotocol/server";

/** The view's resource: one HTML document, the same on every endpoint. */
export const VIEW_URI = "ui://knowledge-wiki/view.html";

/** The MCP Apps extension's type for a view (io.modelcontextprotocol/ui). */
export const VIEW_MIME = "text/html;profile=mcp-app";

/**
 * What the view may reach beyond its own document, as the extension declares it: nothing. Its
 * script and styles are inline, it loads no image, font or frame, and it fetches nothing: every
 * read and write goes through the host's `tools/call`, with the host's own credential.
 */
export const VIEW_CSP = { connectDomains: [], resourceDomains: [], frameDomains: [] };

/**
 * The `_meta` a tool carries to show its result in the view: `ui.resourceUri` (the extension's
 * key) and the flat `ui/resourceUri` older hosts read. Hosts without the extension ignore it;
 * the tool's text and `structuredContent` are unchanged.
 */
export const VIEW_TOOL_META = { ui: { resourceUri: VIEW_URI }, "ui/resourceUri": VIEW_URI };

const VIEW_RESOURCE_META = { ui: { csp: VIEW_CSP, prefersBorder: true } };

let html: Promise<string> | undefined;

/** The view's document: its script and styles inline, with a CSP of its own that says so. */
export function viewHtml(): Promise<string> {
  html ??= (async () => {
    const [script, style] = await Promise.all([
      Deno.readTextFile(new URL("./view.js", import.meta.url)),
      Deno.readTextFile(new URL("./view.css", import.meta.url)),
    ]);
    const digest = async (text: string) =>
      `'sha256-${
        btoa(String.fromCharCode(
          ...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))),
        ))
      }'`;
    const csp = `default-src 'none'; script-src ${await digest(script)}; ` +
      `style-src ${await digest(style)}; img-src data:; connect-src 'none'; ` +
      `frame-src 'none'; form-action 'none'; base-uri 'none'`;
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>Wiki</title>
<style>${style}</style>
</head>
<body>
<main id="view" aria-live="polite"><p class="notice">Waiting for the result…</p></main>
<script>${script}</script>
</body>
</html>
`;
  })();
  return html;
}

/** Registers the view as a resource, so hosts with the extension can fetch and show it. */
export function registerWikiView(server: McpServer): void {
  server.registerResource("wiki-view", VIEW_URI, {
    title: "Wiki view",
    description: "Shows ask answers with their sources, search results and pages (MCP Apps)",
    mimeType: VIEW_MIME,
    _meta: VIEW_RESOURCE_META,
  }, async () => ({
    contents: [{
      uri: VIEW_URI,
      mimeType: VIEW_MIME,
      text: await viewHtml(),
      _meta: VIEW_RESOURCE_META,
    }],
  }));
}

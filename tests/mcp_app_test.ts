import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";
import { mcpClient, type Revision } from "./mcp_helpers.ts";

const VIEW = "ui://knowledge-wiki/view.html";

Deno.test("MCP App: every endpoint serves the view, and ask, search and get_page (only they) link it", async () => {
  await using db = await freshDb();
  await createWiki(db, { id: "garden", title: "Garden", visibility: "public" });
  const ana = await createAccount(db, { email: "ana@example.com" });
  await createWiki(db, { id: "ana-notes", visibility: "private", ownerAccountId: ana.id });
  const { token } = await createToken(db, { accountId: ana.id, kind: "account", name: "t" });
  const { app } = testApp(db);
  for (const revision of ["2025-11-25", "2026-07-28"] as Revision[]) {
    for (const [path, bearer] of [["/mcp/hub/"], ["/mcp/w/garden/"], ["/mcp/", token]]) {
      const client = await mcpClient(app, path!, bearer, revision);
      try {
        const linked = (await client.listTools()).tools
          .filter((t) =>
            (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri === VIEW
          )
          .map((t) => t.name).sort();
        assert.deepEqual(linked, ["ask", "get_page", "search"], `${path} ${revision}`);
        const listed = (await client.listResources()).resources.find((r) => r.uri === VIEW);
        assert.equal(listed?.mimeType, "text/html;profile=mcp-app");
        const read = (await client.readResource({ uri: VIEW })).contents[0] as unknown as {
          mimeType: string;
          text: string;
          _meta: { ui: { csp: Record<string, string[]> } };
        };
        assert.equal(read.mimeType, "text/html;profile=mcp-app");
        assert.deepEqual(read._meta.ui.csp, {
          connectDomains: [],
          resourceDomains: [],
          frameDomains: [],
        });
        // One document: no script, style, image or frame from anywhere, its own CSP says so.
        assert.doesNotMatch(read.text, /<(script|link|img|iframe)[^>]*(src|href)=/i);
        assert.doesNotMatch(read.text, /\bfetch\(|XMLHttpRequest|WebSocket|localStorage/);
        assert.match(
          read.text,
          /http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+';[^"]*connect-src 'none'/,
        );
      } finally {
        await client.close();
      }
    }
  }
});

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { unzipSync } from "fflate";
import { Client, StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/client@2.4.0";
import * as oauth from "npm:oauth4webapi@3.8.8";
import { screenshot } from "./chromium.ts";
import { CHROMIUM, createSpace, liveApp, signUp } from "./live_app.ts";
import { seedPages } from "./space_helpers.ts";

// Real headless Chromium against a real server on loopback: the journeys a person takes.

/** The app on a loopback port over a fresh database, and a 1000 px browser window. */
async function liveServer(options: { seedDocs?: boolean } = {}) {
  const live = await liveApp({}, options);
  const page = await live.window({ width: 1000, height: 800 });
  return Object.assign(live, { page });
}

async function mcp(base: string, token: string): Promise<Client> {
  const client = new Client({ name: "browser-journey", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp/`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

Deno.test({
  name: "a person signs up, writes linked pages, connects an assistant with a space token, " +
    "sees its use, and revoking the token shuts the assistant out",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveServer({ seedDocs: true });
    const { base, page } = live;
    await page.goto(`${base}/`);
    await page.getByRole("link", { name: "Service documentation" }).waitFor();
    await screenshot(page, "landing");
    await signUp(page, base, "ana@example.com");
    await createSpace(page, base, "field-notes", "Field notes");

    // Two linked pages: the link to the second one is "missing" until it exists.
    await page.goto(`${base}/w/field-notes/-/new`);
    await page.getByLabel("Path").fill("Birds");
    await page.getByLabel("Markdown").fill(
      "# Birds\n\nThe grey heron nests in reed beds near [[Ponds]] and hunts frogs at dawn.\n",
    );
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(`${base}/w/field-notes/Birds`);
    const missing = page.locator("article a", { hasText: "Ponds" });
    assert.match((await missing.getAttribute("class")) ?? "", /missing/);
    await missing.click();
    await page.getByLabel("Markdown").fill(
      "# Ponds\n\nShallow ponds with still water hold frogs, newts and dragonfly larvae.\n",
    );
    await page.getByRole("button", { name: "Preview" }).click();
    await page.locator("#preview").getByText("dragonfly larvae").waitFor();
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(`${base}/w/field-notes/Ponds`);
    const backlinks = page.getByRole("region", { name: "Backlinks" });
    await backlinks.getByRole("link", { name: "Birds" }).waitFor();
    await screenshot(page, "page");
    await page.setViewportSize({ width: 390, height: 844 }); // a phone
    await screenshot(page, "page-phone");
    await page.setViewportSize({ width: 1000, height: 800 });
    await page.goto(`${base}/w/field-notes/Birds`);
    const link = page.locator("article a", { hasText: "Ponds" });
    assert.doesNotMatch((await link.getAttribute("class")) ?? "", /missing/);

    // The same hybrid search as the assistants get.
    await page.getByRole("search").getByLabel("Search").fill("heron");
    await page.getByRole("search").getByLabel("Search").press("Enter");
    await page.waitForURL(/\/w\/field-notes\/-\/search\?q=heron/);
    await page.locator("main").getByRole("link", { name: "Birds" }).first().waitFor();
    await screenshot(page, "search");

    // A space token, shown once.
    await page.goto(`${base}/account/tokens`);
    await page.getByLabel("Name").fill("Assistant on my laptop");
    await page.getByLabel("Opens").selectOption("field-notes");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await page.locator("#new-token").textContent())!.trim();
    assert.match(token, /^wk_space_/);
    await screenshot(page, "tokens");

    // The assistant: the real MCP client over HTTP with that token.
    const client = await mcp(base, token);
    const found = await client.callTool({ name: "search", arguments: { query: "heron" } });
    assert.ok(!found.isError, JSON.stringify(found.content));
    const results = (found.structuredContent as { results: { page: string }[] }).results;
    assert.equal(results[0]?.page, "Birds");
    const confirmed = await client.callTool({
      name: "confirm_use",
      arguments: { page: "Birds", query: "Where do herons nest?" },
    });
    assert.ok(!confirmed.isError, JSON.stringify(confirmed.content));
    await client.close();

    // The owner sees the use.
    await page.goto(`${base}/w/field-notes/-/usage`);
    const uses = page.getByRole("table").filter({ has: page.getByText("Birds") });
    await uses.first().waitFor();
    assert.match(await page.locator("main").innerText(), /Confirmed uses/);
    assert.equal(await page.locator('svg[role="img"]').count() > 0, true, "a chart");
    await screenshot(page, "usage");

    // Revoked: the next MCP call is refused.
    await page.goto(`${base}/account/tokens`);
    await page.getByRole("row", { name: /Assistant on my laptop/ })
      .getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("row", { name: /Assistant on my laptop/ }).getByText("revoked")
      .waitFor();
    const refused = await fetch(`${base}/mcp/`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(refused.status, 401);
    await refused.body?.cancel();
    await assert.rejects(mcp(base, token));

    await page.goto(`${base}/account`);
    await screenshot(page, "dashboard");
    await page.goto(`${base}/connect`);
    await screenshot(page, "connect");
  },
});

Deno.test({
  name: "an OAuth client gets a code when the person allows, and access_denied when they deny",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveServer();
    const { base, page } = live;
    await signUp(page, base, "ana@example.com");
    await createSpace(page, base, "field-notes", "Field notes");

    // The client's side: a loopback redirect URI, discovery and registration by a real library.
    const callbacks: URL[] = [];
    await using callback = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
      const url = new URL(req.url);
      if (url.pathname === "/callback") callbacks.push(url); // not the browser's /favicon.ico
      return new Response("<h1>Back in the app</h1>", { headers: { "content-type": "text/html" } });
    });
    const redirectUri = `http://127.0.0.1:${callback.addr.port}/callback`;
    const options = { [oauth.allowInsecureRequests]: true };
    const issuer = new URL(base);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...options, algorithm: "oauth2" }),
    );
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, {
        client_name: "Field assistant",
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
      }, options),
    );
    const client: oauth.Client = { client_id: registered.client_id };
    const authorize = async () => {
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: redirectUri,
        response_type: "code",
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
        resource: `${base}/mcp`,
      }).toString();
      const response = await page.goto(url.toString());
      assert.match(
        response!.headers()["content-security-policy"]!,
        /frame-ancestors 'none'/,
        "the consent page cannot be framed",
      );
      const main = page.locator("main");
      await main.getByText("Field assistant").first().waitFor();
      assert.match(await main.innerText(), new RegExp(`127\\.0\\.0\\.1:${callback.addr.port}`));
      return { verifier, state };
    };

    // Allow: the browser lands on the client's callback with a code that buys a token.
    const allowed = await authorize();
    await page.getByLabel(/Field notes/).check();
    await screenshot(page, "consent");
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(/\/callback\?/);
    const params = oauth.validateAuthResponse(as, client, callbacks.at(-1)!, allowed.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        params,
        redirectUri,
        allowed.verifier,
        { ...options, additionalParameters: { resource: `${base}/mcp` } },
      ),
    );
    const assistant = await mcp(base, tokens.access_token);
    const spaces = await assistant.callTool({ name: "my_spaces", arguments: {} });
    assert.deepEqual(
      (spaces.structuredContent as { spaces: { id: string }[] }).spaces.map((s) => s.id),
      ["field-notes"],
    );
    await assistant.close();
    await page.goto(`${base}/account/apps`);
    await page.getByText("Field assistant").first().waitFor();

    // Deny: the callback gets access_denied and no code.
    const denied = await authorize();
    await page.getByRole("button", { name: "Deny" }).click();
    await page.waitForURL(/\/callback\?/);
    const answer = callbacks.at(-1)!;
    assert.equal(answer.searchParams.get("error"), "access_denied");
    assert.equal(answer.searchParams.get("state"), denied.state);
    assert.equal(answer.searchParams.get("code"), null);
  },
});

Deno.test({
  name: "an import of several files reports the one bad file and imports the others",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveServer();
    const { base, page, db } = live;
    await signUp(page, base, "ana@example.com");
    await createSpace(page, base, "field-notes", "Field notes");
    await page.goto(`${base}/w/field-notes/-/import`);
    const text = (s: string) => Buffer.from(s);
    await page.getByLabel("Files").setInputFiles([
      { name: "Herons.md", mimeType: "text/markdown", buffer: text("# Herons\n\nSee [[Ponds]].") },
      { name: "Ponds.md", mimeType: "text/markdown", buffer: text("# Ponds\n\nStill water.") },
      { name: "broken.zip", mimeType: "application/zip", buffer: text("not a zip at all") },
    ]);
    await page.getByRole("button", { name: "Import" }).click();
    const report = page.locator("#import-report");
    await report.getByText("broken.zip").waitFor();
    await screenshot(page, "import");
    const rows = await report.locator("tr").allInnerTexts();
    const rowOf = (name: string) => rows.find((r) => r.includes(name)) ?? "";
    assert.match(rowOf("Herons.md"), /Created/);
    assert.match(rowOf("Ponds.md"), /Created/);
    assert.match(rowOf("broken.zip"), /Failed\tThe archive cannot be read/);
    const pages = await db<{ path: string }>`
      SELECT path FROM pages WHERE wiki_id = 'field-notes' ORDER BY path`;
    assert.deepEqual(pages.map((p) => p.path), ["Herons", "Ponds"]);
  },
});

Deno.test({
  name: "a reader finds their way by the sidebar, the table of contents, previous/next, " +
    "the breadcrumb, the / key and search as you type, asks the wiki, links with [[ and " +
    "saves with Ctrl+S, on a desktop and on a phone, light and dark",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveServer();
    const { base, page, deps } = live;
    await signUp(page, base, "ana@example.com");
    await createSpace(page, base, "handbook", "Handbook");
    await seedPages(deps, "handbook", {
      "Home": "# Home\n\nWelcome to the handbook. Start with [[Guides/Setup]].\n",
      "Guides": "# Guides\n\nEverything you do once.\n",
      "Guides/Setup": "# Setup\n\nHow to set the service up.\n\n## Install\n\n" +
        "Download the release and unpack it.\n\n## Configure\n\nSet `BASE_URL`.\n\n" +
        "### Ports\n\nOpen port 8000.\n\n## Verify\n\nOpen the health page.\n",
      "Guides/Tuning": "# Tuning\n\nRaise the pool size under load.\n",
      "Reference/Api": "# API\n\nEvery endpoint.\n",
    });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/w/handbook`);
    await page.getByRole("heading", { level: 1, name: "Home" }).waitFor();
    await screenshot(page, "wiki-home");

    const sidebar = page.getByRole("navigation", { name: "Pages" });
    await sidebar.getByRole("link", { name: "Setup" }).click();
    await page.waitForURL(`${base}/w/handbook/Guides/Setup`);
    assert.equal(
      await sidebar.getByRole("link", { name: "Setup" }).getAttribute("aria-current"),
      "page",
    );
    // The header fits one line at 1280 px, and the reading column is wider than 640 px.
    const header = (await page.locator("body > header").boundingBox())!;
    assert.ok(header.height < 70, `header height ${header.height}`);
    const column = (await page.locator(".wiki-content").boundingBox())!;
    assert.ok(column.width > 640, `reading column ${column.width}px`);
    await screenshot(page, "wiki-page");
    await page.emulateMedia({ colorScheme: "dark" });
    const background = await page.evaluate("getComputedStyle(document.body).backgroundColor");
    assert.notEqual(background, "rgb(255, 255, 255)", "dark mode follows the system");
    await screenshot(page, "wiki-page-dark");
    await page.emulateMedia({ colorScheme: "light" });

    await page.getByRole("navigation", { name: "On this page" })
      .getByRole("link", { name: "Configure" }).click();
    await page.waitForURL(`${base}/w/handbook/Guides/Setup#configure`);
    await page.getByRole("navigation", { name: "Previous and next" })
      .getByRole("link", { name: /Next/ }).click();
    await page.waitForURL(`${base}/w/handbook/Guides/Tuning`);
    await page.getByRole("navigation", { name: "Breadcrumb" })
      .getByRole("link", { name: "Guides" }).click();
    await page.waitForURL(`${base}/w/handbook/Guides`);

    // "/" focuses the wiki's search.
    await page.locator("article").click();
    await page.keyboard.press("/");
    assert.equal(
      await page.evaluate("document.activeElement && document.activeElement.id"),
      "wiki-search",
    );

    // Results as you type: titles first; a suggestion opens its page.
    await page.keyboard.type("tun");
    const suggestions = page.getByRole("list", { name: "Suggestions" });
    await suggestions.getByRole("link", { name: "Tuning" }).first().waitFor();
    await screenshot(page, "suggest");
    await suggestions.getByRole("link", { name: "Tuning" }).first().click();
    await page.waitForURL(`${base}/w/handbook/Guides/Tuning`);

    // Ask in the app, without leaving the page, and follow a citation to its section.
    await page.getByRole("search").getByLabel("Search").fill("Which port do I open?");
    await page.getByRole("search").getByRole("button", { name: "Ask" }).click();
    await page.waitForURL(/\/w\/handbook\/-\/ask\?q=/);
    const answer = page.locator("section.answer");
    await answer.locator("p.coverage").waitFor();
    assert.match(await answer.innerText(), /Sources/);
    await screenshot(page, "ask");
    await answer.locator("ol.citations a").first().click();
    await page.waitForURL(new RegExp(`^${base}/w/handbook/Guides/Setup#[a-z]+$`));

    // Ctrl+S saves in the editor; the usage page keeps the wiki's navigation.
    await page.goto(`${base}/w/handbook/-/edit/Guides/Tuning`);
    await page.getByLabel("Markdown").fill(
      "# Tuning\n\nRaise the pool size to 20 under load. See ",
    );
    // "[[" lists pages by title; Enter puts the path in.
    await page.getByLabel("Markdown").press("End");
    await page.keyboard.press("Control+End");
    await page.keyboard.type("[[Set");
    await page.getByRole("listbox", { name: "Pages to link" }).getByRole("option", {
      name: /Setup/,
    })
      .waitFor();
    await page.keyboard.press("Enter");
    assert.match(await page.getByLabel("Markdown").inputValue(), /See \[\[Guides\/Setup\]\]$/);
    await page.getByLabel("Markdown").press("Control+s");
    await page.waitForURL(`${base}/w/handbook/Guides/Tuning`);
    await page.getByText("pool size to 20").waitFor();
    await page.goto(`${base}/w/handbook/-/usage`);
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Setup" })
      .waitFor();

    // On a phone the page comes first: the navigation above it stays small.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/w/handbook/Guides/Setup`);
    const article = (await page.locator("article").boundingBox())!;
    assert.ok(article.y < 844 * 0.4, `the article starts at ${article.y}px of 844`);
    // The page tree waits behind the Menu button, open inside it once the menu is.
    assert.equal(await page.locator(".sidebar").isVisible(), false, "the tree is in the menu");
    await page.getByRole("button", { name: "Menu" }).click();
    await page.locator("#site-menu .sidebar").getByRole("link", { name: "Setup" }).first()
      .waitFor();
    await page.getByRole("button", { name: "Menu" }).click();
    await screenshot(page, "wiki-page-phone");
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshot(page, "wiki-page-phone-dark");
  },
});

/** A 1×1 PNG. */
const PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

Deno.test({
  name: "a member uploads an image with the Files form (no script) and drops one into the " +
    "editor; both show in the page, over MCP get_page, in the zip export, and in a new space " +
    "imported from that zip",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveServer();
    const { base, page } = live;
    await signUp(page, base, "ana@example.com");
    await createSpace(page, base, "lab", "Lab");

    await page.goto(`${base}/w/lab/-/files`);
    await page.getByLabel("Upload a file").setInputFiles({
      name: "chart.png",
      mimeType: "image/png",
      buffer: Buffer.from(PIXEL_PNG, "base64"),
    });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await page.waitForURL(`${base}/w/lab/-/files?uploaded=chart.png&status=created`);
    const line = (await page.locator("#uploaded-markdown").textContent())!;
    assert.equal(line, "![chart.png](/w/lab/-/files/chart.png)");
    await screenshot(page, "files");

    await page.goto(`${base}/w/lab/-/new`);
    await page.getByLabel("Path").fill("Results");
    const markdown = page.getByLabel("Markdown");
    await markdown.fill(`# Results\n\n${line}\n\n`);
    // Drop a file on the text, as a person dragging it from their desktop would.
    // deno-lint-ignore no-explicit-any
    await markdown.evaluate((area: any, png: string) => {
      // deno-lint-ignore no-explicit-any
      const page = globalThis as any;
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      const data = new page.DataTransfer();
      data.items.add(new File([bytes], "dropped.png", { type: "image/png" }));
      area.focus();
      area.setSelectionRange(area.value.length, area.value.length);
      area.dispatchEvent(
        new page.DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }),
      );
    }, PIXEL_PNG);
    const status = page.locator("#attach-status");
    for (let i = 0; i < 100 && /Uploading|Paste or drop/.test(await status.innerText()); i++) {
      await page.waitForTimeout(100);
    }
    assert.equal(await page.locator("#attach-status").innerText(), "Uploaded dropped.png.");
    assert.match(
      await markdown.inputValue(),
      /!\[dropped\.png\]\(\/w\/lab\/-\/files\/dropped\.png\)/,
    );
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(`${base}/w/lab/Results`);
    const images = page.locator("article img");
    assert.equal(await images.count(), 2);
    for (const image of await images.all()) {
      // deno-lint-ignore no-explicit-any
      await image.evaluate((img: any) => img.decode());
      // deno-lint-ignore no-explicit-any
      assert.equal(await image.evaluate((img: any) => img.naturalWidth), 1);
    }

    // An assistant reading the page over MCP gets the images by URL.
    await page.goto(`${base}/account/tokens`);
    await page.getByLabel("Name").fill("Reader");
    await page.getByLabel("Opens").selectOption("lab");
    await page.getByRole("button", { name: "Create token" }).click();
    const client = await mcp(base, (await page.locator("#new-token").textContent())!.trim());
    const read = await client.callTool({ name: "get_page", arguments: { page: "Results" } });
    await client.close();
    assert.ok(!read.isError, JSON.stringify(read.content));
    assert.match(JSON.stringify(read.structuredContent), /\/w\/lab\/-\/files\/dropped\.png/);

    // The Export link gives a zip of the markdown with both images; the Import form takes it
    // into a new space, whose page is the same and shows the same images.
    await page.goto(`${base}/w/lab/Results`);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export", exact: true }).click(),
    ]);
    const zip = await Deno.readFile((await download.path())!);
    assert.deepEqual(Object.keys(unzipSync(zip)).sort(), [
      "lab/Results.md",
      "lab/chart.png",
      "lab/dropped.png",
    ]);
    await createSpace(page, base, "lab2", "Lab copy");
    await page.goto(`${base}/w/lab2/-/import`);
    await page.getByLabel("Files").setInputFiles({
      name: "lab.zip",
      mimeType: "application/zip",
      buffer: Buffer.from(zip),
    });
    await page.getByRole("button", { name: "Import" }).click();
    await page.locator("#import-report").getByText("Results").first().waitFor();
    const markdownOf = async (id: string) =>
      (await (await page.request.get(`${base}/w/${id}/Results.md`)).text())
        .replaceAll(`/w/${id}/`, "/w/<id>/");
    assert.equal(await markdownOf("lab2"), await markdownOf("lab"));
    await page.goto(`${base}/w/lab2/Results`);
    for (const image of await page.locator("article img").all()) {
      // deno-lint-ignore no-explicit-any
      await image.evaluate((img: any) => img.decode());
    }
    assert.equal(await page.locator("article img").count(), 2);
  },
});

import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/client@2.4.0";
import { writePage } from "../src/pages/write_page.ts";
import { screenshot } from "./chromium.ts";
import { CHROMIUM, createSpace, liveApp, signUp } from "./live_app.ts";

// Real headless Chromium: an owner reviews and accepts an edit an assistant proposed.

Deno.test({
  name:
    "an agent proposes an edit, the owner accepts it in the browser, and the history credits it",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp({ REQUEST_TIMEOUT_MS: "120000" });
    const { base, deps } = live;
    const page = await live.window();
    await signUp(page, base, "ana@example.com");
    await createSpace(page, base, "notes", "Notes");
    await writePage(deps, {
      wikiId: "notes",
      path: "Setup",
      markdown: "# Setup\n\nRun the installer.\n",
    }, { source: "test" });

    // A space token that may read and propose, made in the tokens form.
    await page.goto(`${base}/account/tokens`);
    await page.getByLabel("Name").fill("helper");
    await page.getByLabel("Opens").selectOption("notes");
    await page.getByLabel(/Read and propose edits/).check();
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await page.locator("#new-token").textContent())!.trim();

    const client = new Client({ name: "browser-agent", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp/`), {
        // In process, through the live server's app and database: the real SDK client, without
        // a second loopback connection beside Chromium's (which stalled on this shared machine).
        fetch: async (url, init) => await live.app.fetch(new Request(url, init)),
        requestInit: {
          headers: { Authorization: `Bearer ${token}`, "User-Agent": "HelperBot/2.0" },
        },
      }),
    );
    const proposed = await client.callTool({
      name: "propose_edit",
      arguments: {
        page: "Setup",
        markdown: "# Setup\n\nRun the install script.\n",
        base_revision: 1,
        summary: "The installer became a script",
      },
    });
    assert.ok(!proposed.isError, JSON.stringify(proposed.content));
    await client.close();

    // The owner finds it on the feedback page, reviews the diff and accepts it.
    await page.goto(`${base}/w/notes`);
    await page.getByRole("link", { name: "Feedback" }).click();
    await page.getByRole("link", { name: /Change to “Setup”/ }).click();
    await page.locator("ins", { hasText: "Run the install script." }).waitFor();
    await screenshot(page, "proposal-review");
    await page.getByRole("button", { name: "Accept" }).click();
    await page.waitForURL(`${base}/w/notes/Setup`);
    await page.getByText("Run the install script.").waitFor();

    await page.goto(`${base}/w/notes/-/history/Setup`);
    const row = page.getByRole("row", { name: /proposed by Ana with HelperBot\/2\.0/ });
    await row.waitFor();
    assert.match((await row.textContent())!, /^2/);
  },
});

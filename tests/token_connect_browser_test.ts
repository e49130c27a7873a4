import assert from "node:assert/strict";
import { CHROMIUM, createSpace, liveApp, signUp } from "./live_app.ts";

// Real headless Chromium against a real server on loopback: a token just made is tried on
// /mcp/ from its own page, and a new space's id follows its title.

Deno.test({
  name:
    "Test this connection calls /mcp/ with the new token and says what it reaches; a new space's id is made from its title",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp({});
    const { base } = live;
    const page = await live.window();
    await signUp(page, base, "ana@example.com");
    await createSpace(page, base, "handbook", "Handbook");

    await page.goto(`${base}/account`);
    await page.getByLabel("Title", { exact: true }).fill("Équipe Notes");
    assert.equal(await page.getByLabel("Space id").inputValue(), "equipe-notes");
    await page.getByLabel("Space id").fill("team-notes");
    await page.getByLabel("Title", { exact: true }).fill("Team notes, renamed");
    assert.equal(
      await page.getByLabel("Space id").inputValue(),
      "team-notes",
      "an edited id stays",
    );

    await page.goto(`${base}/account/tokens`);
    await page.getByLabel("Name").fill("Claude Code");
    await page.getByRole("button", { name: "Create token" }).click();
    await page.locator("#new-token").waitFor();
    await page.getByRole("button", { name: "Test this connection" }).click();
    const result = page.locator("[data-check-result]");
    await result.getByText(/Connected to .*: this token reaches 1 space: handbook\./).waitFor();
  },
});

Deno.test({
  name:
    "the connect page is short, with a tab per client that the arrow keys move through; a space's snippets point at /mcp/",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp({});
    const { base } = live;
    const page = await live.window();
    await signUp(page, base, "ana@example.com");
    await createSpace(page, base, "handbook", "Handbook");

    for (const path of ["/connect", "/w/handbook/-/connect"]) {
      await page.goto(`${base}${path}`);
      const tabs = page.getByRole("tablist", { name: "Clients" }).getByRole("tab");
      assert.equal(await tabs.count(), 10, path);
      const panel = page.getByRole("tabpanel");
      assert.equal(await panel.count(), 1, "one client shows at a time");
      assert.match(await panel.innerText(), /claude mcp add --transport http/);
      const heights: number[] = [];
      for (let i = 0; i < 10; i++) {
        await tabs.nth(i).click();
        heights.push(await page.evaluate<number>("document.documentElement.scrollHeight"));
      }
      assert.ok(Math.max(...heights) < 2500, `${path}: ${heights.join(", ")} px tall`);

      await tabs.first().focus();
      await page.keyboard.press("ArrowRight");
      const desktop = page.getByRole("tab", { name: "Claude Desktop and claude.ai" });
      assert.equal(await desktop.getAttribute("aria-selected"), "true");
      assert.equal(
        await page.evaluate("document.activeElement.textContent"),
        await desktop.innerText(),
      );
      await page.keyboard.press("End");
      assert.match(await page.getByRole("tabpanel").innerText(), /api\.openai\.com\/v1\/responses/);
      await page.getByRole("tab", { name: "Cursor" }).click();
      const cursor = await page.getByRole("tabpanel").locator("pre:visible").innerText();
      assert.match(cursor, /"mcpServers"/);
      assert.ok(cursor.includes(`"url": "${base}/mcp/`), cursor);
    }
    // The space's private snippet is the plain /mcp/ address: a space token picks its space.
    const code = await page.locator("#claude-code-private").innerText();
    assert.equal(
      code,
      `claude mcp add --transport http wiki-handbook ${base}/mcp/ \\\n  --header "Authorization: Bearer <YOUR_TOKEN>"`,
    );
    await page.goto(`${base}/connect#cursor`);
    assert.equal(
      await page.getByRole("tab", { name: "Cursor" }).getAttribute("aria-selected"),
      "true",
      "an address naming a client opens its tab",
    );
  },
});

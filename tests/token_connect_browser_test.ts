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
    await page.getByLabel("Title").fill("Équipe Notes");
    assert.equal(await page.getByLabel("Space id").inputValue(), "equipe-notes");
    await page.getByLabel("Space id").fill("team-notes");
    await page.getByLabel("Title").fill("Team notes, renamed");
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

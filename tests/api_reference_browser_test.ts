import assert from "node:assert/strict";
import { createAccount } from "../src/accounts/accounts.ts";
import { createToken } from "../src/auth/tokens.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { CHROMIUM, liveApp } from "./live_app.ts";

// The API reference in real headless Chromium: "Try it" with a pasted account token.

Deno.test({
  name:
    "the API reference's try-it sends GET /api/v1/spaces with a pasted token and shows the JSON",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp();
    const { base, db } = live;
    const ana = await createAccount(db, { email: "ana@example.com" });
    await createWiki(db, {
      id: "field-notes",
      title: "Field notes",
      visibility: "private",
      ownerAccountId: ana.id,
    });
    const { token } = await createToken(db, { accountId: ana.id, kind: "account", name: "try" });
    const page = await live.window();
    const errors: string[] = [];
    // The expected 401 is logged as a failed load; anything else (a CSP refusal) is an error.
    page.on("console", (m) => {
      if (m.type() === "error" && !/Failed to load resource/.test(m.text())) {
        errors.push(m.text());
      }
    });
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${base}/api/v1/docs`);
    const form = page.locator("article#listSpaces form.try");
    await form.waitFor(); // shown by the script
    // Without a token the API refuses, and the page says so.
    await form.getByRole("button", { name: "Send GET" }).click();
    await form.locator(".result .status", { hasText: "401" }).waitFor();

    await page.getByLabel("Token for “Try it”").fill(token);
    await page.getByRole("button", { name: "Use token" }).click();
    await page.getByText("A token is set for this tab.").waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem("wiki-api-token")), token);
    assert.equal(await page.getByLabel("Token for “Try it”").inputValue(), "", "input cleared");

    await form.getByRole("button", { name: "Send GET" }).click();
    await form.locator(".result .status", { hasText: "200" }).waitFor();
    const shown = JSON.parse(await form.locator(".result pre").innerText());
    assert.deepEqual(shown.spaces.map((s: { id: string }) => s.id), ["field-notes"]);

    // Forgetting the token removes it from the tab.
    await page.getByRole("button", { name: "Forget token" }).click();
    assert.equal(await page.evaluate(() => sessionStorage.getItem("wiki-api-token")), null);
    // No CSP violation or script error on the way (an inline script would be one).
    assert.deepEqual(errors, []);
  },
});

Deno.test({
  name: "the API reference reads without JavaScript and shows no try-it form then",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp();
    const { base } = live;
    const context = await live.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/api/v1/docs`);
    await page.locator("h2#tag-spaces").waitFor();
    await page.locator("article#listSpaces").getByText("Example request").waitFor();
    assert.equal(await page.locator("form.try:visible").count(), 0);
    assert.equal(await page.locator("form.token:visible").count(), 0);
    await page.getByRole("link", { name: /The spaces this account token reaches/ }).click();
    assert.match(page.url(), /#listSpaces$/);
  },
});

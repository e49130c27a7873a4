import assert from "node:assert/strict";
import { CHROMIUM, createSpace, liveApp, PASSWORD, signUp } from "./live_app.ts";
import { seedPages } from "./space_helpers.ts";

// Real headless Chromium against a real server on loopback: an edit outlives its session.

Deno.test({
  name: "an edit saved after the session ended is kept: the save offers to sign in, the editor " +
    "offers the draft back, and the same text is saved; a signed-out private link says sign in",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp({ REQUEST_TIMEOUT_MS: "120000" });
    const { base, deps, db } = live;
    const page = await live.window();
    await signUp(page, base, "ana@example.com");
    await createSpace(page, base, "handbook", "Handbook");
    await seedPages(deps, "handbook", { Setup: "# Setup\n\nInstall the tools.\n" });

    await page.goto(`${base}/w/handbook/-/edit/Setup`);
    const markdown = page.getByLabel("Markdown");
    const typed = "# Setup\n\nInstall the tools, then run the checks.\n";
    await markdown.fill(typed);
    await page.waitForTimeout(500); // the draft is kept once typing pauses
    // The session ends meanwhile (signed out in another tab, or expired).
    await db`DELETE FROM sessions`;
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.waitForLoadState();
    const refused = await page.locator("main").innerText();
    assert.match(refused, /You are signed out/);
    assert.doesNotMatch(refused, /Forbidden/);

    // Sign in from there: back in the editor, the draft is offered and saved.
    await page.locator("main").getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Email").fill("ana@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${base}/w/handbook/-/edit/Setup`);
    assert.equal(await markdown.inputValue(), "# Setup\n\nInstall the tools.\n");
    const offer = page.locator("#draft-offer");
    assert.match(await offer.innerText(), /kept a draft of this page/);
    await offer.getByRole("button", { name: "Restore the draft" }).click();
    assert.equal(await markdown.inputValue(), typed);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.waitForURL(`${base}/w/handbook/Setup`);
    const [saved] = await db<{ markdown: string }>`
      SELECT markdown FROM pages WHERE wiki_id = 'handbook' AND path = 'Setup'`;
    assert.equal(saved!.markdown, typed);
    // Saved: the editor opens without an offer.
    await page.goto(`${base}/w/handbook/-/edit/Setup`);
    assert.equal(await page.locator("#draft-offer").count(), 0);

    // A teammate signed out opens the private link: told to sign in, no other wiki suggested.
    const teammate = await live.window();
    const response = await teammate.goto(`${base}/w/handbook/Setup`);
    assert.equal(response?.status(), 404);
    const told = await teammate.locator("main").innerText();
    assert.match(told, /not found, or it is private: sign in to see it if it is yours/);
    assert.doesNotMatch(told, /did you mean/);
    const signIn = teammate.locator("main").getByRole("link", { name: "Sign in" });
    assert.match(await signIn.getAttribute("href") ?? "", /next=%2Fw%2Fhandbook%2FSetup/);
  },
});

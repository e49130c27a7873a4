import assert from "node:assert/strict";
import { writePage } from "../src/pages/write_page.ts";
import { shareSpace } from "../src/sharing/shares.ts";
import { screenshot } from "./chromium.ts";
import { CHROMIUM, createSpace, liveApp, signUp } from "./live_app.ts";

// Real headless Chromium: an owner manages versions on the space's Versions page, a reader
// switches versions from a live page, a viewer sees the list without the controls.

Deno.test({
  name: "an owner publishes, renames and deletes versions; readers switch versions from any page",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp({ REQUEST_TIMEOUT_MS: "120000" });
    const { base, deps } = live;
    const write = (path: string, markdown: string) =>
      writePage(deps, { wikiId: "garden", path, markdown }, { source: "test" });
    const page = await live.window();
    await signUp(page, base, "ana@example.com");
    await createSpace(page, base, "garden", "Garden");
    await write("Home", "# Home\n\nWelcome to the garden.\n");
    await write("Compost", "# Compost\n\nReady after three months.\n");

    // Publish v1 as the default from the Versions page.
    await page.goto(`${base}/w/garden`);
    await page.getByRole("navigation", { name: "Wiki tools" }).getByRole("link", {
      name: "Versions",
    }).click();
    await page.getByLabel("Version name").fill("v1");
    await page.getByLabel(/Make it the default/).check();
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("status").filter({ hasText: 'Published version "v1" (2 pages)' })
      .waitFor();
    await write("Compost", "# Compost\n\nReady after six weeks.\n");
    await write("Leaves", "# Leaves\n\nLeaf mould takes two years.\n");
    await page.getByLabel("Version name").fill("v2");
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("status").filter({ hasText: 'Published version "v2"' }).waitFor();

    // The switcher on a live page: choosing a version opens the same page in it.
    await page.goto(`${base}/w/garden/Compost`);
    await page.getByText("Ready after six weeks.").waitFor();
    await page.getByLabel("Version", { exact: true }).selectOption("v1");
    await page.waitForURL(`${base}/w/garden@v1/Compost`);
    await page.getByText("Ready after three months.").waitFor();
    await screenshot(page, "version-switcher");
    // A page the chosen version does not hold: its home, saying so.
    await page.goto(`${base}/w/garden/Leaves`);
    await page.getByLabel("Version", { exact: true }).selectOption("v1");
    await page.waitForURL(`${base}/w/garden@v1?missing=Leaves`);
    await page.getByRole("status").filter({ hasText: "There is no page Leaves in version v1" })
      .waitFor();
    await page.getByText("Welcome to the garden.").waitFor();
    // And back to the live pages from the version.
    await page.getByLabel("Version", { exact: true }).selectOption("latest");
    await page.waitForURL(`${base}/w/garden/Home`);

    // Rename v2; deleting the default is refused with what to do instead.
    await page.goto(`${base}/w/garden/-/versions`);
    await page.getByRole("row", { name: /^v2/ }).getByRole("link", { name: "Rename" }).click();
    await page.getByLabel("New name").fill("v2.0");
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByRole("status").filter({ hasText: 'Renamed version "v2" to "v2.0"' })
      .waitFor();
    await page.getByRole("row", { name: /^v1/ }).getByRole("link", { name: "Delete" }).click();
    await page.getByRole("alert").filter({ hasText: 'Version "v1" is the default of "garden"' })
      .waitFor();
    assert.equal(await page.getByRole("button", { name: /Delete version/ }).count(), 0);

    // Make the live pages the default, then delete v1 through its confirmation.
    await page.goto(`${base}/w/garden/-/versions`);
    await page.getByRole("row", { name: /^latest/ }).getByRole("button", { name: "Make default" })
      .click();
    await page.getByRole("status").filter({ hasText: "now get the live pages (latest)" })
      .waitFor();
    await page.getByRole("row", { name: /^v1/ }).getByRole("link", { name: "Delete" }).click();
    await page.getByText("This cannot be undone.").waitFor();
    await screenshot(page, "version-delete");
    await page.getByRole("button", { name: "Delete version v1" }).click();
    await page.getByRole("status").filter({ hasText: 'Deleted version "v1"' }).waitFor();
    assert.equal(await page.getByRole("row", { name: /^v1/ }).count(), 0);

    // A viewer sees the versions, without a control to change them.
    await shareSpace(live.db, {
      wikiId: "garden",
      email: "bo@example.com",
      role: "viewer",
      actorId: (await live.db<{ id: string }>`SELECT id FROM accounts`)[0]!.id,
    });
    const bo = await live.window();
    await signUp(bo, base, "bo@example.com", "Bo");
    await bo.goto(`${base}/w/garden/-/versions`);
    await bo.getByRole("row", { name: /^v2\.0/ }).waitFor();
    await bo.getByText("Owners and admins of this space publish").waitFor();
    for (const name of ["Publish", "Make default"]) {
      assert.equal(await bo.getByRole("button", { name }).count(), 0, name);
    }
    assert.equal(await bo.getByRole("link", { name: /^(Rename|Delete)$/ }).count(), 0);
  },
});

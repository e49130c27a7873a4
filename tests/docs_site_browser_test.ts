import assert from "node:assert/strict";
import { zipSync } from "fflate";
import type { Page } from "npm:playwright-core@1.65.1";
import { createAccount } from "../src/accounts/accounts.ts";
import { importUploads } from "../src/spaces/import_uploads.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { CHROMIUM, liveApp } from "./live_app.ts";

// Real headless Chromium against a real server on loopback: imported docs read as a docs site.

const FIXTURES = new URL("./fixtures/docs_formats/", import.meta.url).pathname;

/** A fixture folder as an uploaded zip. */
async function fixtureZip(name: string): Promise<File> {
  const files: Record<string, Uint8Array> = {};
  const walk = async (at: string, rel: string) => {
    for await (const entry of Deno.readDir(at)) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(`${at}/${entry.name}`, path);
      else files[path] = await Deno.readFile(`${at}/${entry.name}`);
    }
  };
  await walk(`${FIXTURES}${name}`, "");
  return new File([zipSync({ [name]: files } as never)], `${name}.zip`);
}

/** Saves the docs' screenshot of this view when `UPDATE_DOCS_SCREENSHOTS=1`. */
async function docsShot(page: Page, name: string) {
  if (Deno.env.get("UPDATE_DOCS_SCREENSHOTS") !== "1") return;
  await page.screenshot({ path: `docs/screenshots/${name}.png`, fullPage: false });
}

Deno.test({
  name: "imported docs read as a docs site: callouts, keyboard tabs and steps in the DOM, " +
    "no back-office tools for an anonymous reader, light and dark, desktop and phone",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp();
    const { base, deps, db } = live;
    const ada = await createAccount(db, { email: "ada@example.com" });
    for (const format of ["docusaurus", "mintlify", "mkdocs"]) {
      await createWiki(db, { id: format, visibility: "public", ownerAccountId: ada.id });
      await importUploads(deps, format, [await fixtureZip(format)], ada.id);
    }
    for (const scheme of ["light", "dark"] as const) {
      for (
        const [device, viewport] of [["desktop", { width: 1280, height: 800 }], [
          "phone",
          { width: 390, height: 844 },
        ]] as const
      ) {
        const page = await live.window(viewport);
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`${base}/w/docusaurus/tutorial-basics/markdown-features`);
        const tip = page.locator("aside.callout-tip");
        assert.equal(await tip.locator(".callout-title").innerText(), "My tip");
        assert.equal(await page.locator("aside.callout-danger").count(), 1);
        const tabs = page.locator(".tabs").getByRole("tab");
        assert.deepEqual(await tabs.allInnerTexts(), ["Apple", "Orange"]);
        assert.equal(
          await page.getByRole("tabpanel").filter({ hasText: "apple" }).isVisible(),
          true,
        );
        await tabs.first().focus();
        await page.keyboard.press("ArrowRight");
        assert.equal(await tabs.nth(1).getAttribute("aria-selected"), "true");
        assert.equal(await page.getByText("This is an orange").isVisible(), true);
        assert.equal(await page.getByText("This is an apple").isVisible(), false);
        const text = await page.locator("article").innerText();
        assert.doesNotMatch(text, /import Tabs|export const|<Highlight/);
        // An anonymous reader: no back-office tools.
        assert.equal(await page.getByRole("link", { name: "History" }).count(), 0);
        assert.equal(await page.getByText(/revision \d/).count(), 0);
        assert.equal(await page.getByText("Ctrl").count(), 0);
        await docsShot(page, `docs-site-tabs-${scheme}-${device}`);

        await page.goto(`${base}/w/mintlify/quickstart`);
        assert.equal(await page.locator("ol.steps > li.step").count(), 3);
        assert.equal(
          await page.locator("ol.steps .step-title").first().innerText(),
          "Install the CLI",
        );
        await page.goto(`${base}/w/mkdocs/reference/admonitions`);
        assert.equal(await page.locator("details.callout").count(), 2);
        assert.equal(await page.locator("details.callout[open]").count(), 1);
        await docsShot(page, `docs-site-callouts-${scheme}-${device}`);
        await page.context().close();
      }
    }
  },
});

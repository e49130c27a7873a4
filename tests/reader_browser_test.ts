import assert from "node:assert/strict";
import type { Page } from "npm:playwright-core@1.65.1";
import { writePage } from "../src/pages/write_page.ts";
import { CHROMIUM, createSpace, liveApp, signUp } from "./live_app.ts";

// Real headless Chromium against a real server: the reader's polish on the guide (a public
// wiki read anonymously) and on a member's space — the phone menu, the skip link, the Ctrl+K
// palette — in light and dark.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** Whether the page scrolls sideways (something wider than the screen). */
const scrollsSideways = (page: Page) =>
  page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth");
/** The id of the element that has the focus. */
const focused = (page: Page) => page.evaluate("document.activeElement?.id ?? ''");

Deno.test({
  name: "on a phone, a Menu button holds the header's links and the page tree; Sign up stays " +
    "in sight; nothing scrolls sideways; the skip link reaches the content",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp({}, { seedDocs: true });
    for (const scheme of ["light", "dark"] as const) {
      const page = await live.window(PHONE);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${live.base}/w/docs/Self-hosting`);
      assert.equal(await scrollsSideways(page), false, "no sideways scroll at 390 px");
      assert.equal(await page.getByRole("link", { name: "Sign up" }).isVisible(), true);
      const menu = page.getByRole("button", { name: "Menu" });
      assert.equal(await menu.getAttribute("aria-expanded"), "false");
      assert.equal(await page.getByRole("link", { name: "Public wikis" }).isVisible(), false);
      const tree = page.locator("#site-menu .sidebar");
      assert.equal(await tree.isVisible(), false);
      await menu.click();
      assert.equal(await menu.getAttribute("aria-expanded"), "true");
      assert.equal(await page.getByRole("link", { name: "Public wikis" }).isVisible(), true);
      assert.equal(await tree.getByRole("link", { name: "Writing pages" }).isVisible(), true);
      assert.equal(await scrollsSideways(page), false);
      await page.keyboard.press("Escape");
      assert.equal(await menu.getAttribute("aria-expanded"), "false");
      assert.equal(await tree.isVisible(), false);

      // The skip link is the first stop of the keyboard, and moves focus into the content.
      await page.reload();
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to content" });
      assert.equal(await page.evaluate("document.activeElement.textContent"), "Skip to content");
      assert.equal(await skip.isVisible(), true);
      await page.keyboard.press("Enter");
      assert.equal(await focused(page), "main");
      await page.context().close();
    }
    // On a desktop there is no Menu button: the links and the tree are in place.
    const wide = await live.window(DESKTOP);
    await wide.goto(`${live.base}/w/docs/Self-hosting`);
    assert.equal(await wide.getByRole("button", { name: "Menu" }).isVisible(), false);
    assert.equal(await wide.getByRole("link", { name: "Public wikis" }).isVisible(), true);
    assert.equal(await wide.locator(".wiki-grid > .sidebar").isVisible(), true);
    // Each code block has a Copy button (copy.js) that copies the code or, without a clipboard,
    // selects it.
    const copy = wide.getByRole("button", { name: "Copy code" }).first();
    await copy.click();
    assert.match(await copy.textContent() ?? "", /^(Copied|Selected: press Ctrl\+C)$/);
    assert.match(await wide.getByRole("status").last().textContent() ?? "", /Copied|Selected/);
    await wide.context().close();
  },
});

/** Opens the palette with the platform's keys and types `query`; gives the listbox. */
async function paletteFor(page: Page, query: string) {
  await page.keyboard.press("Control+k");
  const dialog = page.getByRole("dialog", { name: "Search" });
  await dialog.waitFor();
  const box = dialog.getByRole("combobox");
  assert.equal(await focused(page), "palette-input");
  await box.fill(query);
  const list = dialog.getByRole("listbox");
  await list.getByRole("option").first().waitFor();
  return { dialog, box, list };
}

Deno.test({
  name: "Ctrl+K opens a search palette over titles, headings and pages: typos and prefixes " +
    "forgiven, arrows, Enter and Esc, for anonymous readers and members",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp({}, { seedDocs: true });
    const page = await live.window(DESKTOP);
    await page.goto(`${live.base}/w/docs`);
    const { dialog, box, list } = await paletteFor(page, "writng pages");
    const first = list.getByRole("option").first();
    assert.match(await first.innerText(), /^Writing pages/);
    assert.equal(await first.getAttribute("aria-selected"), "true");
    assert.equal(await box.getAttribute("aria-activedescendant"), await first.getAttribute("id"));
    assert.equal(await box.getAttribute("aria-expanded"), "true");
    // Esc closes it; focus goes back where it was.
    await page.keyboard.press("Escape");
    assert.equal(await dialog.isVisible(), false);

    // A heading with a typo, then ↓ and Enter open the second result.
    await paletteFor(page, "environmnt");
    const options = page.getByRole("option");
    const texts = await options.allInnerTexts();
    assert.match(texts[0]!, /Self-hosting › Environment variables/);
    await page.keyboard.press("ArrowDown");
    assert.equal(await options.nth(1).getAttribute("aria-selected"), "true");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${live.base}/w/docs/Self-hosting#environment-variables`);
    await page.context().close();

    // A member in their own space; the editor keeps Ctrl+K for a link.
    const ana = await live.window(DESKTOP);
    await signUp(ana, live.base, "ana@example.com");
    await createSpace(ana, live.base, "notes", "Notes");
    const markdown = "# Retention\n\nHow long we keep things.\n";
    await writePage(live.deps, { wikiId: "notes", path: "Retention", markdown }, {
      source: "test",
    });
    await ana.goto(`${live.base}/w/notes`);
    await paletteFor(ana, "reten");
    assert.match(await ana.getByRole("option").first().innerText(), /^Retention/);
    await ana.keyboard.press("Enter");
    await ana.waitForURL(`${live.base}/w/notes/Retention`);
    await ana.goto(`${live.base}/w/notes/-/edit/Retention`);
    await ana.locator("textarea").focus();
    await ana.keyboard.press("Control+k");
    assert.equal(await ana.getByRole("dialog", { name: "Search" }).isVisible(), false);
    await ana.context().close();
  },
});

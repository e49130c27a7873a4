import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "npm:playwright-core@1.65.1";
import { screenshot } from "./chromium.ts";
import { CHROMIUM, createSpace, liveApp, signUp } from "./live_app.ts";
import { seedPages } from "./space_helpers.ts";

// Real headless Chromium against a real server on loopback: writing a page in the editor.

/** A 1×1 PNG. */
const PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** Selects the first `text` in the editor's markdown. */
async function select(page: Page, text: string) {
  // deno-lint-ignore no-explicit-any
  await page.getByLabel("Markdown").evaluate((area: any, text: string) => {
    const at = area.value.indexOf(text);
    if (at < 0) throw new Error(`"${text}" is not in the editor`);
    area.focus();
    area.setSelectionRange(at, at + text.length);
  }, text);
}

Deno.test({
  name: "the editor: a new page starts empty, the toolbar formats the selection and uploads " +
    "an image, the preview follows the text without a request per keystroke and never runs its " +
    "markup, [[ completes a " +
    "page and the saved link shows its title, Ctrl+S saves, and the shortcuts are listed",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp({ REQUEST_TIMEOUT_MS: "120000" });
    const { base, deps } = live;
    const page = await live.window();
    await signUp(page, base, "ana@example.com");
    await createSpace(page, base, "handbook", "Handbook");
    await seedPages(deps, "handbook", {
      "Ops/Deploy": "# Deploying to production\n\nShip it on Tuesdays.\n",
    });
    const previews: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/w/handbook/-/preview")) previews.push(request.url());
    });

    // A new page is not pre-filled with a heading made from its path.
    await page.goto(`${base}/w/handbook/-/new?path=Guides/Onboarding`);
    const markdown = page.getByLabel("Markdown");
    assert.equal(await markdown.inputValue(), "");
    assert.equal(await page.getByLabel("Path").inputValue(), "Guides/Onboarding");

    // The shortcuts are listed in the editor.
    const toolbar = page.getByRole("toolbar", { name: "Formatting" });
    await toolbar.getByText("Shortcuts").click();
    const shortcuts = await toolbar.locator("dl").innerText();
    for (const line of ["Save the page", "Bold", "Link", "Link a page"]) {
      assert.match(shortcuts, new RegExp(line));
    }
    assert.match(shortcuts, /Ctrl\/⌘\s*\+\s*S/);
    await toolbar.getByText("Shortcuts").click();

    // The toolbar is one tab stop; the arrow keys move along it.
    await toolbar.getByRole("button", { name: "Heading" }).focus();
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.evaluate("document.activeElement.textContent"), "Bold");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await page.evaluate("document.activeElement.textContent"), "Image");

    // The toolbar puts markdown around the selection or before the selected lines.
    await markdown.fill("Intro\n\nfast\nsafe\n\nSee the notes and run it");
    const format = async (text: string, button: string) => {
      await select(page, text);
      await toolbar.getByRole("button", { name: button, exact: true }).click();
    };
    await format("Intro", "Heading");
    await format("fast\nsafe", "List");
    await format("notes", "Bold");
    assert.equal(
      await markdown.inputValue(),
      "## Intro\n\n- fast\n- safe\n\nSee the **notes** and run it",
    );
    await select(page, "notes");
    await page.keyboard.press("Control+b"); // a second press takes it off
    await format("run", "Code");
    await format("notes", "Link");
    await page.keyboard.type("https://example.com/notes"); // the URL is selected
    assert.equal(
      await markdown.inputValue(),
      "## Intro\n\n- fast\n- safe\n\nSee the [notes](https://example.com/notes) and `run` it",
    );
    await markdown.press("Control+End");
    await toolbar.getByRole("button", { name: "Table" }).click();
    assert.match(
      await markdown.inputValue(),
      /`run` it\n\n\| Column \| Column \|\n\| ------ \| ------ \|\n\| Cell {3}\| Cell {3}\|\n$/,
    );
    await page.keyboard.press("Control+z"); // toolbar edits undo like typing
    assert.match(await markdown.inputValue(), /`run` it$/);

    // The preview follows the text, rendered by the server once typing pauses: fewer
    // requests than keystrokes, and a burst of input is one request.
    await markdown.fill("");
    await page.locator("#preview-body").getByText("The preview shows here").waitFor();
    previews.length = 0;
    const typed = "# Your first day\n\nMeet the team and set up your laptop.";
    await page.keyboard.type(typed);
    const preview = page.locator("#preview-body");
    await preview.getByText("set up your laptop.").waitFor();
    assert.equal(await preview.locator("h1").innerText(), "Your first day");
    assert.ok(
      previews.length >= 1 && previews.length < typed.length / 2,
      `${previews.length} preview requests for ${typed.length} keystrokes`,
    );
    const before = previews.length;
    // deno-lint-ignore no-explicit-any
    await markdown.evaluate((area: any) => {
      for (const key of " Ask in the ops channel when stuck.") {
        area.value += key;
        area.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });
    await preview.getByText("Ask in the ops channel when stuck.").waitFor();
    assert.equal(previews.length, before + 1, "one request for a burst of 34 inputs");

    // Markup in the text is shown as text in the preview, never run.
    const kept = await markdown.inputValue();
    await markdown.press("Control+End");
    await page.keyboard.type(` <img src=x onerror="document.title='run'"><script>1</script>`);
    await preview.getByText("<script>1</script>").waitFor();
    assert.equal(await preview.locator("img, script").count(), 0);
    assert.notEqual(await page.title(), "run");
    await markdown.fill(kept);

    // "Image" opens the file picker; the picked image is uploaded and put at the cursor.
    await markdown.press("Control+End");
    await page.keyboard.type("\n\n");
    const [chooser] = await Promise.all([
      page.waitForEvent("filechooser"),
      toolbar.getByRole("button", { name: "Image" }).click(),
    ]);
    await chooser.setFiles({
      name: "desk.png",
      mimeType: "image/png",
      buffer: Buffer.from(PIXEL_PNG, "base64"),
    });
    await page.locator("#attach-status").getByText("Uploaded desk.png.").waitFor();
    assert.match(
      await markdown.inputValue(),
      /\n\n!\[desk\.png\]\(\/w\/handbook\/-\/files\/desk\.png\)$/,
    );
    await preview.locator('img[src="/w/handbook/-/files/desk.png"]').waitFor();

    // "[[" lists pages by title; Enter puts the path in; the preview shows the title.
    await page.keyboard.type("\n\nBefore you ship, read [[Depl");
    await page.getByRole("listbox", { name: "Pages to link" })
      .getByRole("option", { name: /Deploying to production/ }).waitFor();
    await page.keyboard.press("Enter");
    assert.match(await markdown.inputValue(), /read \[\[Ops\/Deploy\]\]$/);
    await page.keyboard.type(".");
    await preview.getByRole("link", { name: "Deploying to production" }).waitFor();
    await screenshot(page, "editor");

    // Ctrl+S saves; the page links to the other by its title.
    await markdown.press("Control+s");
    await page.waitForURL(`${base}/w/handbook/Guides/Onboarding`);
    const link = page.locator("article").getByRole("link", { name: "Deploying to production" });
    assert.equal(await link.getAttribute("href"), "/w/handbook/Ops/Deploy");
    await page.getByRole("heading", { level: 1, name: "Your first day" }).waitFor();
  },
});

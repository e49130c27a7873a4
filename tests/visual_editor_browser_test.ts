import assert from "node:assert/strict";
import type { Page } from "npm:playwright-core@1.65.1";
import { screenshot } from "./chromium.ts";
import { CHROMIUM, createSpace, liveApp, signUp } from "./live_app.ts";
import { seedPages } from "./space_helpers.ts";

// Real headless Chromium against a real server on loopback: the editor's Visual mode writes
// markdown a person would have typed, and leaves what it was not asked to change alone.

/** A 1×1 PNG. */
const PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** Switches the editor to Visual and waits for it. */
async function visual(page: Page) {
  await page.getByLabel("Visual").check();
  await page.locator(".milkdown .ProseMirror").waitFor();
}

/**
 * Keys as a person types them, a few dozen ms apart. All at once, a key typed while an input rule
 * ("- " making a list) rebuilds the block can land elsewhere on a loaded machine (CI's failure:
 * "- one" saved as "- ne" with the "o" at the end), a race in the editor's handling of DOM input.
 */
const TYPING = { delay: 30 };

/** Picks a block from the "/" menu. */
async function block(page: Page, name: string) {
  await page.keyboard.type("/", TYPING);
  const menu = page.locator(".milkdown-slash-menu");
  if (Deno.env.get("DEBUG_VISUAL")) {
    await page.waitForTimeout(500);
    await page.screenshot({ path: "/tmp/visual_debug.png" });
    console.log(await menu.innerText().catch((e) => String(e)));
  }
  // Crepe shows its menu from a debounced check of the caret's block; on a loaded machine that
  // check can miss the "/" (CI's call log: the menu stayed hidden). A person types it again.
  // Crepe shows no "/" menu inside a list: if the caret is still in one, leave it as a person would.
  const item = menu.getByText(name, { exact: true });
  for (let tries = 1; !(await item.isVisible()); tries++) {
    await item.waitFor({ state: "visible", timeout: 5_000 }).catch(async () => {
      const where = await caretBlock(page);
      if (tries >= 3) {
        const markdown = await page.locator("textarea[name=markdown]").inputValue();
        throw new Error(
          `the "/" menu did not open for ${name}; caret in ${where}; markdown: ${
            JSON.stringify(markdown)
          }`,
        );
      }
      await page.keyboard.press("Backspace");
      if (where.includes("LI")) await page.keyboard.press("Enter");
      await page.keyboard.type("/", TYPING);
    });
  }
  await item.click();
}

/** The elements around the caret, innermost first (e.g. "P < LI < UL < DIV"), for a failure's message. */
function caretBlock(page: Page): Promise<string> {
  return page.evaluate(`(() => {
    const names = [];
    for (let n = getSelection()?.anchorNode; n && names.length < 5; n = n.parentElement) {
      if (n.nodeType === 1) names.push(n.tagName);
    }
    return names.join(" < ");
  })()`) as Promise<string>;
}

/** Waits until the caret is inside `depth` list items (the list the screen shows it in). */
async function caretInListItems(page: Page, depth: number) {
  await page.waitForFunction(
    `(() => {
      let items = 0;
      for (let n = getSelection()?.anchorNode; n; n = n.parentElement) {
        if (n.nodeName === "LI") items++;
      }
      return items === ${depth};
    })()`,
    undefined,
    { timeout: 10_000 },
  );
}

/** Pastes a PNG into the focused element, as a screenshot is pasted. */
async function pastePng(page: Page, name: string, base64: string) {
  await page.evaluate(`(() => {
    const bytes = Uint8Array.from(atob(${JSON.stringify(base64)}), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], ${JSON.stringify(name)}, { type: "image/png" }));
    const event = new ClipboardEvent("paste", { clipboardData: data, bubbles: true });
    document.activeElement.dispatchEvent(event);
  })()`);
}

/** What both screens do: write a page of every kind of block in Visual mode, save, reopen. */
async function writeInVisualMode(device: string, viewport: { width: number; height: number }) {
  await using live = await liveApp({ REQUEST_TIMEOUT_MS: "120000" });
  const { base, deps } = live;
  const page = await live.window(viewport);
  if (Deno.env.get("DEBUG_VISUAL")) {
    page.on("pageerror", (e) => console.log("pageerror:", e.message));
    page.on("console", (e) => console.log("console:", e.text()));
  }
  await signUp(page, base, "ana@example.com");
  await createSpace(page, base, "handbook", "Handbook");
  await seedPages(deps, "handbook", {
    "Ops/Deploy": "# Deploying to production\n\nShip it on Tuesdays.\n",
    "Runbook": "# Runbook\n\nWhat to do when a node is down.\n",
  });
  await page.goto(`${base}/w/handbook/-/new?path=Guides/Visual`);
  await visual(page);
  const editor = page.locator(".milkdown .ProseMirror");
  await editor.click();
  const type = (text: string) => page.keyboard.type(text, TYPING);
  // A pause after a key that reshapes a block (Enter, Tab), as a person makes: a key typed at once
  // after one can land at the end of the document on a loaded machine (left open: see the note).
  const press = async (key: string) => {
    await page.keyboard.press(key);
    await page.waitForTimeout(150);
  };

  await type("# Visual page");
  await press("Enter");
  // A person sees the bullet (and then the indent) before typing the item's text: typed before
  // the editor has moved the caret into the new list item, a key can land elsewhere (CI, loaded).
  await type("- ");
  await caretInListItems(page, 1);
  await type("one");
  await press("Enter");
  await press("Tab");
  await caretInListItems(page, 2);
  await type("two");
  await press("Enter");
  await press("Enter");
  await press("Enter");
  await block(page, "Table");
  await editor.locator("table.children").waitFor();
  for (const [i, cell] of ["A", "B", "C", "1", "2", "3"].entries()) {
    if (i > 0) await press("Tab");
    await type(cell);
  }
  await editor.locator("table.children").scrollIntoViewIfNeeded();
  await page.keyboard.press("Control+End");
  await type("```js ");
  await type("let x = 1");
  await press("Control+Enter"); // out of the code block
  if (Deno.env.get("DEBUG_VISUAL")) {
    await page.waitForTimeout(400);
    console.log(await page.locator("textarea[name=markdown]").inputValue());
  }
  await block(page, "Callout");
  await type("Mind the gap");
  await press("Enter");
  await press("Enter");
  await pastePng(page, "tiny.png", PIXEL_PNG);
  await editor.locator('img[src="/w/handbook/-/files/tiny.png"]').waitFor();
  await press("End");
  await press("Enter");
  await type("See [[Depl");
  const list = page.getByRole("listbox", { name: "Pages to link" });
  if (Deno.env.get("DEBUG_VISUAL")) {
    await page.waitForTimeout(1000);
    console.log(
      await page.evaluate(
        "[getSelection().anchorNode.textContent, typeof wikiLinkSuggest, document.getElementById('link-suggest')?.outerHTML]",
      ),
    );
  }
  await list.getByRole("option", { name: /Deploying to production/ }).waitFor();
  const box = (await list.boundingBox())!;
  const caret: { top: number; bottom: number } = await page.evaluate(
    "(({ top, bottom }) => ({ top, bottom }))(getSelection().getRangeAt(0).getBoundingClientRect())",
  );
  assert.ok(box.y >= 0 && box.y + box.height <= viewport.height, `list at y=${box.y}`);
  assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, `list at x=${box.x}`);
  const below = Math.abs(box.y - caret.bottom) < 16;
  const above = Math.abs(box.y + box.height - caret.top) < 16;
  assert.ok(below || above, `list at y=${box.y}..${box.y + box.height}, caret ${caret.top}`);
  await press("Enter");
  await type(" and @Runb");
  await list.getByRole("option", { name: /Runbook/ }).waitFor();
  await press("Enter");
  await screenshot(page, `editor-visual-${device}`);
  await page.getByRole("button", { name: "Save" }).click();
  await page.waitForURL(`${base}/w/handbook/Guides/Visual`);

  await page.goto(`${base}/w/handbook/-/edit/Guides/Visual`);
  await page.getByLabel("Source", { exact: true }).check();
  const saved = await page.locator("textarea[name=markdown]").inputValue();
  assert.equal(
    saved,
    [
      "# Visual page",
      "",
      "- one",
      "  - two",
      "",
      "| A | B | C |",
      "| - | - | - |",
      "| 1 | 2 | 3 |",
      "| | | |",
      "",
      "```js",
      "let x = 1",
      "```",
      "",
      "> [!NOTE]",
      "> Mind the gap",
      "",
      "![tiny.png](/w/handbook/-/files/tiny.png)",
      "",
      "See [[Ops/Deploy]] and [[Runbook]]",
      "",
    ].join("\n"),
  );
}

for (
  const [device, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const
) {
  Deno.test({
    name: `the visual editor on a ${device}: a heading, a nested list, a table, code, a ` +
      "callout, a pasted image and two page links saved in Visual mode are the markdown a " +
      "person types; [[ and @ suggest pages at the caret inside the window",
    ignore: !CHROMIUM,
    fn: () => writeInVisualMode(device, viewport),
  });
}

Deno.test({
  name: "the visual editor gives every guide page and imported fixture page back byte for byte " +
    "when nothing was edited, and an edit at the end changes nothing before it",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp({});
    const page = await live.window();
    await page.goto(`${live.base}/w/docs`);
    for (const file of await roundTripPages()) {
      const entry = { name: file.pathname.split("/tests/").at(-1)!.split("/docs/").at(-1)! };
      const markdown = await Deno.readTextFile(file);
      const untouched: string = await page.evaluate(`(async () => {
        const { openVisualEditor } = await import("/assets/vendor/visual_editor.js");
        await window.visualTest?.destroy();
        document.querySelectorAll(".visual-test").forEach((e) => e.remove());
        const root = document.createElement("div");
        root.className = "visual-test";
        document.body.prepend(root);
        window.visualTest = await openVisualEditor(root, ${JSON.stringify(markdown)});
        return window.visualTest.markdown();
      })()`);
      assert.equal(untouched, markdown, `${entry.name} came back changed`);
      // Typing at the end is checked on the guide: an imported page may end inside a component
      // (Mintlify's <Card>), where the caret lands in the component's own text.
      if (!file.pathname.includes("/docs/guide/")) continue;
      await page.locator(".visual-test .ProseMirror").click();
      await page.keyboard.press("Control+End");
      await page.keyboard.type(" Added at the end.");
      const edited: string = await page.evaluate("window.visualTest.markdown()");
      assert.equal(untouched, markdown, `${entry.name} came back changed`);
      const before = markdown.slice(0, markdown.trimEnd().lastIndexOf("\n\n"));
      assert.ok(edited.startsWith(before), `${entry.name}: the edit changed what came before it`);
      assert.match(edited, /Added at the end\./, entry.name);
    }
  },
});

/**
 * The pages an untouched round trip must give back: the guide, and every page of the real-world
 * exports the import tests use (GitBook, MkDocs, Docusaurus, Mintlify, Notion; `.md` and `.mdx`).
 */
async function roundTripPages(): Promise<URL[]> {
  const files: URL[] = [];
  const walk = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) await walk(url);
      else if (/\.mdx?$/.test(entry.name)) files.push(url);
    }
  };
  await walk(new URL("../docs/guide/", import.meta.url));
  await walk(new URL("./fixtures/docs_formats/", import.meta.url));
  return files.sort((a, b) => a.href.localeCompare(b.href));
}

import assert from "node:assert/strict";
import type { Page } from "npm:playwright-core@1.65.1";
import { writePage } from "../src/pages/write_page.ts";
import { axeWindow, SIZES, violationsInBothSchemes } from "./axe.ts";
import { CHROMIUM, createSpace, liveApp, signUp } from "./live_app.ts";

// axe-core run inside real headless Chromium on the pages people read and work in: the
// published reading view (anonymous, with callouts, tabs and code), the editor, the dashboard
// and the usage page, on a desktop and a phone, light and dark, plus the palette and the phone
// menu open. None may have a serious or critical violation. The API reference, the longest page
// to check, is its own test (axe_api_reference_browser_test.ts) so the two run side by side.

const DOCS_PAGE = `# Callouts and code

Some text with [a link](https://example.com).

:::warning Careful
Back up first.
:::

{% tabs %}
{% tab title="Linux" %}
\`\`\`sh
apt-get install wiki # the package
\`\`\`
{% endtab %}
{% tab title="macOS" %}
brew install wiki
{% endtab %}
{% endtabs %}

\`\`\`ts
const port: number = 8000; // "the default"
\`\`\`
`;

Deno.test({
  name: "axe-core finds no serious or critical violation on the reading view, editor, " +
    "dashboard and usage page, desktop and phone, light and dark",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp({}, { seedDocs: true });
    const { base } = live;
    await writePage(live.deps, { wikiId: "docs", path: "Callouts", markdown: DOCS_PAGE }, {
      source: "test",
    });
    const anon = await axeWindow(live);
    const member = await axeWindow(live);
    await signUp(member, base, "ana@example.com");
    await createSpace(member, base, "notes", "Notes");
    const views: [Page, string, string][] = [
      [anon, "reading view", "/w/docs/Callouts"],
      [member, "editor", "/w/notes/-/edit/Home"],
      [member, "dashboard", "/account"],
      [member, "usage", "/w/notes/-/usage"],
    ];
    const found: string[] = [];
    const check = async (page: Page, where: string) =>
      found.push(...await violationsInBothSchemes(page, where));
    for (const [device, viewport] of Object.entries(SIZES)) {
      await anon.setViewportSize(viewport);
      await member.setViewportSize(viewport);
      for (const [page, name, path] of views) {
        await page.goto(`${base}${path}`);
        await check(page, `${name}, ${device}`);
      }
      // The palette open over a reading view, and on a phone the menu open.
      await anon.goto(`${base}/w/docs/Callouts`);
      await anon.keyboard.press("Control+k");
      await anon.getByRole("combobox").fill("self-host");
      await anon.getByRole("option").first().waitFor();
      await check(anon, `palette, ${device}`);
      if (device === "phone") {
        await anon.goto(`${base}/w/docs/Callouts`);
        await anon.getByRole("button", { name: "Menu" }).click();
        await check(anon, `menu, ${device}`);
      }
    }
    await anon.context().close();
    await member.context().close();
    assert.deepEqual(found, []);
  },
});

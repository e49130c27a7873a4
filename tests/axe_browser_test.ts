import assert from "node:assert/strict";
import axe from "axe-core";
import type { Page } from "npm:playwright-core@1.65.1";
import { writePage } from "../src/pages/write_page.ts";
import { CHROMIUM, createSpace, liveApp, signUp } from "./live_app.ts";

// axe-core (the accessibility engine, test-only) run inside real headless Chromium on the
// pages people read and work in: the published reading view (anonymous, with callouts, tabs
// and code), the editor, the dashboard, the usage page and the API reference, on a desktop and
// a phone, light and dark (the app follows the system's scheme), plus the palette and the
// phone menu open. None may have a serious or critical violation.

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

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

/** What differs between the schemes: colours only. The dark run checks just these rules. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/** Runs axe-core in the page; gives its serious and critical violations, one line each. */
async function seriousViolations(page: Page, rules?: string[]): Promise<string[]> {
  if (!(await page.evaluate("typeof window.axe === 'object'"))) await page.evaluate(axe.source);
  const options = { resultTypes: ["violations"], ...(rules && { runOnly: rules }) };
  const results = await page.evaluate(
    `axe.run(document, ${JSON.stringify(options)})`,
  ) as axe.AxeResults;
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) =>
      `${v.id} (${v.impact}): ${v.help} — ${
        v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")
      }`
    );
}

Deno.test({
  name: "axe-core finds no serious or critical violation on the reading view, editor, " +
    "dashboard, usage page and API reference, desktop and phone, light and dark",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp({}, { seedDocs: true });
    const { base } = live;
    await writePage(live.deps, { wikiId: "docs", path: "Callouts", markdown: DOCS_PAGE }, {
      source: "test",
    });
    // axe is injected as the test's own script: the app's CSP allows this origin's only.
    const open = async () =>
      await (await live.browser.newContext({ viewport: SIZES.desktop, bypassCSP: true }))
        .newPage();
    const anon = await open();
    const member = await open();
    await signUp(member, base, "ana@example.com");
    await createSpace(member, base, "notes", "Notes");
    const views: [Page, string, string][] = [
      [anon, "reading view", "/w/docs/Callouts"],
      [member, "editor", "/w/notes/-/edit/Home"],
      [member, "dashboard", "/account"],
      [member, "usage", "/w/notes/-/usage"],
      [member, "API reference", "/api/v1/docs"],
    ];
    const found: string[] = [];
    const check = async (page: Page, where: string) => {
      await page.emulateMedia({ colorScheme: "light" });
      for (const v of await seriousViolations(page)) found.push(`${where}, light: ${v}`);
      await page.emulateMedia({ colorScheme: "dark" });
      for (const v of await seriousViolations(page, COLOUR_RULES)) {
        found.push(`${where}, dark: ${v}`);
      }
    };
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

import axe from "axe-core";
import type { Page } from "npm:playwright-core@1.65.1";
import type { liveApp } from "./live_app.ts";

// axe-core (the accessibility engine, test-only) inside real headless Chromium, for the
// accessibility browser tests (axe_browser_test.ts, axe_api_reference_browser_test.ts): a page
// has no serious or critical violation, light and dark (the app follows the system's scheme).

export const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

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

/** The page's violations in the light scheme (every rule) and the dark one (colours), named. */
export async function violationsInBothSchemes(page: Page, where: string): Promise<string[]> {
  await page.emulateMedia({ colorScheme: "light" });
  const found = (await seriousViolations(page)).map((v) => `${where}, light: ${v}`);
  await page.emulateMedia({ colorScheme: "dark" });
  for (const v of await seriousViolations(page, COLOUR_RULES)) found.push(`${where}, dark: ${v}`);
  return found;
}

/** A window axe can run in: it is injected as the test's own script, and the app's CSP allows this origin's only. */
export async function axeWindow(live: Awaited<ReturnType<typeof liveApp>>): Promise<Page> {
  const context = await live.browser.newContext({ viewport: SIZES.desktop, bypassCSP: true });
  return await context.newPage();
}

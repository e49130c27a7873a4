import { type Browser, chromium, type Page } from "npm:playwright-core@1.65.1";

/**
 * Where Debian's Chromium is (`apt-get install chromium`), or `CHROMIUM_PATH`; null when
 * there is none. Browser tests are ignored without it, except where `REQUIRE_BROWSER=1`
 * (`.ci/run`) makes a missing browser a failure.
 */
export function chromiumPath(): string | null {
  const candidates = [
    Deno.env.get("CHROMIUM_PATH"),
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
  ];
  for (const path of candidates) {
    if (!path) continue;
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // not here
    }
  }
  if (Deno.env.get("REQUIRE_BROWSER") === "1") {
    throw new Error("REQUIRE_BROWSER=1 but no Chromium: apt-get install chromium");
  }
  return null;
}

/** Headless Chromium with the flags DESIGN.md names for these machines. */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

const SCREENSHOTS = new URL("../docs/screenshots/", import.meta.url);

/**
 * Saves a screenshot of the page as `docs/screenshots/<name>.png` when `UPDATE_SCREENSHOTS=1`
 * (so ordinary test runs leave the tree clean).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (Deno.env.get("UPDATE_SCREENSHOTS") !== "1") return;
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });
}

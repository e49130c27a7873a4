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

/**
 * Saves a screenshot of a test's page as `<tmp>/wiki-test-screenshots/<name>.png` when
 * `UPDATE_SCREENSHOTS=1`, to see what a journey saw. The documentation's screenshots are not
 * these: `deno task screenshots` (`scripts/screenshots.ts`) takes every page, light and dark,
 * desktop and phone, into `docs/screenshots/`.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (Deno.env.get("UPDATE_SCREENSHOTS") !== "1") return;
  const dir = `${Deno.env.get("TMPDIR") ?? "/tmp"}/wiki-test-screenshots`;
  await Deno.mkdir(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

import type { Browser, Page } from "npm:playwright-core@1.65.1";
import { createApp } from "../src/app.ts";
import type { Deps } from "../src/deps.ts";
import { seedDocs } from "../src/wikis/seed_docs.ts";
import { chromiumPath, launchChromium } from "./chromium.ts";
import { freshDb, testDeps } from "./helpers.ts";

/** Chromium for the browser tests, or null (the tests are then ignored). */
export const CHROMIUM = chromiumPath();
/**
 * One headless Chromium per test process, launched as the module loads (outside any test, so
 * no test owns its process and pipes): launching and closing one cost a second or two per test.
 * Each window is a context of its own (own cookies, storage and cache), and a test's contexts
 * are closed when it ends, so tests share no state through it.
 */
let shared: Browser | null = CHROMIUM ? await launchChromium(CHROMIUM) : null;

/** The shared Chromium, launched again if it went away (a crash would otherwise fail every later test). */
async function chromium(): Promise<Browser> {
  if (!shared?.isConnected()) shared = await launchChromium(CHROMIUM!);
  return shared;
}

/** The password every browser test signs up with. */
export const PASSWORD = "correct horse battery staple";

/**
 * The whole app served on a loopback port over a fresh database, and the headless Chromium, for
 * one browser test. `env` adds settings (BASE_URL is the server's address); `window()` opens a
 * person's own browser window (own context: own cookies). Disposing closes the test's contexts,
 * the server and the database.
 */
export async function liveApp(
  env: Record<string, string> = {},
  options: { seedDocs?: boolean } = {},
) {
  const db = await freshDb();
  // The app needs the server's address (BASE_URL) and the server needs the app: bind late.
  const late: { app?: ReturnType<typeof createApp> } = {};
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request, info) => late.app!.fetch(request, { remoteAddr: info.remoteAddr }),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  const deps: Deps = testDeps(db, { BASE_URL: base, ...env });
  if (options.seedDocs) await seedDocs(deps);
  const app = late.app = createApp(deps);
  const browser = await chromium();
  const window = async (viewport = { width: 1280, height: 800 }): Promise<Page> =>
    await (await browser.newContext({ viewport })).newPage();
  return {
    base,
    app,
    db,
    deps,
    browser,
    window,
    async [Symbol.asyncDispose]() {
      // Every context open now is this test's: a process runs its tests one at a time.
      await Promise.all(browser.contexts().map((context) => context.close()));
      await server.shutdown();
      await db[Symbol.asyncDispose]();
    },
  };
}

/** Signs a new account up through the form; the page ends on the dashboard. */
export async function signUp(page: Page, base: string, email: string, name = "Ana") {
  await page.goto(`${base}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(`${base}/account`);
}

/** Creates a space from the dashboard's form; the page ends on the new wiki. */
export async function createSpace(page: Page, base: string, id: string, title: string) {
  await page.goto(`${base}/account`);
  await page.getByLabel("Space id").fill(id);
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByRole("button", { name: "Create space" }).click();
  await page.waitForURL(`${base}/w/${id}`);
}

import assert from "node:assert/strict";
import { axeWindow, SIZES, violationsInBothSchemes } from "./axe.ts";
import { CHROMIUM, liveApp, signUp } from "./live_app.ts";

// axe-core inside real headless Chromium on the API reference (/api/v1/docs), as a signed-in
// member sees it, on a desktop and a phone, light and dark: no serious or critical violation.
// Its own test, beside axe_browser_test.ts: the reference is the largest page the app has, and
// axe takes as long on it as on all the others together.

Deno.test({
  name: "axe-core finds no serious or critical violation on the API reference, desktop and " +
    "phone, light and dark",
  ignore: !CHROMIUM,
  fn: async () => {
    await using live = await liveApp({});
    const member = await axeWindow(live);
    await signUp(member, live.base, "ana@example.com");
    const found: string[] = [];
    for (const [device, viewport] of Object.entries(SIZES)) {
      await member.setViewportSize(viewport);
      await member.goto(`${live.base}/api/v1/docs`);
      found.push(...await violationsInBothSchemes(member, `API reference, ${device}`));
    }
    await member.context().close();
    assert.deepEqual(found, []);
  },
});

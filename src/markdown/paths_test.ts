import assert from "node:assert/strict";
import { cleanPath, pathKey } from "./paths.ts";

Deno.test("paths compare case-insensitively with _ equal to space", () => {
  assert.equal(pathKey("Guides/Getting_Started"), pathKey("guides/getting started"));
  assert.equal(cleanPath(" Guides / Setup.md "), "Guides/Setup");
  assert.equal(cleanPath("a/../b"), null);
  assert.equal(cleanPath("bad[name]"), null);
});

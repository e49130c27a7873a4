import assert from "node:assert/strict";
import { holdsNumber } from "./sentence_kinds.ts";

Deno.test("holdsNumber reads an amount, not an issue's number", () => {
  for (const s of ["Default: `3`", "It listens on port 8080.", "Every ten minutes.", "an hour"]) {
    assert.ok(holdsNumber(s), s);
  }
  for (const s of ["More details can be found in issue #3779.", "See v2 of the API", "a_b_2c"]) {
    assert.ok(!holdsNumber(s), s);
  }
});

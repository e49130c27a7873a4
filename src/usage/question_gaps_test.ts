import assert from "node:assert/strict";
import { gapOf, titleOf } from "./question_gaps.ts";

Deno.test("gapOf groups questions that miss the same words, whatever their wording", () => {
  const a = gapOf("How do I rotate the API keys?", ["rotate", "api", "keys"], []);
  const b = gapOf("When should API keys be rotated?", ["api", "keys", "rotated"], []);
  assert.equal(a.key, b.key);
  assert.equal(a.title, "Rotate API keys");
  assert.notEqual(a.key, gapOf("How do I rotate logs?", ["rotate", "logs"], []).key);
});

Deno.test("gapOf keys a question an unwritten page would answer by that page", () => {
  const gap = gapOf("Do worm bins help?", ["bins"], ["Worm bins"]);
  assert.deepEqual(gap, { key: "page:worm bins", title: "Worm bins" });
  assert.equal(gapOf("Worm_Bins?", [], ["worm_bins"]).key, gap.key);
});

Deno.test("gapOf falls back to all the question's words when none was missing", () => {
  assert.equal(gapOf("Compost worms?", [], []).key, gapOf("worms and compost", [], []).key);
  assert.equal(gapOf("Why is it so?", [], []).title, "Why is it so");
});

Deno.test("titleOf keeps the question's content words as asked, capitalised and bounded", () => {
  assert.equal(titleOf("what is the deploy process for v2.1?"), "Deploy process v2.1");
  assert.ok(titleOf("word ".repeat(100)).length <= 80);
});

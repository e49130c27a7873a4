import assert from "node:assert/strict";
import { coverageOf, SUPPORTED_AT, SUPPORTED_AT_DOCS } from "./verdict.ts";

// The documentation bar was chosen on docsqa-dev, eval/woodpecker and eval/nats for a precision
// of `supported` of 0.90 on each (docs/answers.md, "The verdict on documentation, fitted and
// checked set by set", and "The verdict's words on documentation"): a documentation answer at
// 0.27 is `supported`, a SQuAD-shaped one is not.
Deno.test("a documentation answer is supported from the documentation bar, 0.27", () => {
  assert.equal(SUPPORTED_AT_DOCS, 0.27);
  assert.equal(coverageOf(1, 0.28, undefined, true), "supported");
  assert.equal(coverageOf(1, 0.27, undefined, true), "supported");
  assert.equal(coverageOf(1, 0.26, undefined, true), "partial");
});

Deno.test("an answer from a page of one heading keeps the SQuAD bar", () => {
  assert.equal(coverageOf(1, 0.28, undefined, false), "partial");
  assert.equal(coverageOf(1, SUPPORTED_AT, undefined, false), "supported");
});

Deno.test("nothing cited is unsupported, and a model's claims are weighed", () => {
  assert.equal(coverageOf(0, 0.99, undefined, true), "unsupported");
  assert.equal(coverageOf(1, 0.27, false, true), "partial");
  assert.equal(coverageOf(1, 0.2, false, true), "unsupported");
  assert.equal(coverageOf(1, 0.31, true, false), "supported");
  assert.equal(coverageOf(1, 0.29, true, true), "partial");
});

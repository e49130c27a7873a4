import assert from "node:assert/strict";
import {
  coverageOf,
  documentationAnswerability,
  entryNamed,
  SUPPORTED_AT,
  SUPPORTED_AT_DOCS,
} from "./verdict.ts";
import { parseQuestion } from "./question.ts";

// The documentation bar was chosen on the documentation branch's probability over seven
// development sets for a precision of `supported` of 0.90 on each (docs/answers.md, "The
// documentation verdict refitted with nautobot"): a documentation answer at 0.48 is
// `supported`, a SQuAD-shaped one is not.
Deno.test("a documentation answer is supported from the documentation bar, 0.48", () => {
  assert.equal(SUPPORTED_AT_DOCS, 0.48);
  assert.equal(coverageOf(1, 0.49, undefined, true), "supported");
  assert.equal(coverageOf(1, 0.48, undefined, true), "supported");
  assert.equal(coverageOf(1, 0.47, undefined, true), "partial");
});

Deno.test("the documentation branch: the SQuAD log-odds recalibrated, and the entry the question names", () => {
  // At the bar before (0.27 on the SQuAD probability) an answer from an entry the question
  // does not name stands at the new bar; one the question names outright stands well above.
  assert.ok(Math.abs(documentationAnswerability(0.27, 0) - SUPPORTED_AT_DOCS) < 0.01);
  assert.ok(documentationAnswerability(0.15, 1) > 0.6);
  assert.ok(documentationAnswerability(0.05, 0) < 0.3);
});

Deno.test("a question names an entry headed by a name by the share of its words it holds", () => {
  const named = (q: string, section: string | null) => entryNamed(parseQuestion(q), section);
  assert.equal(named("How long does NAPALM wait? Any timeout?", "Settings > NAPALM_TIMEOUT"), 1);
  assert.equal(named("How long does NAPALM wait?", "Settings > `NAPALM_TIMEOUT`"), 0.5);
  assert.equal(named("How long does NAPALM wait?", "Settings > NAPALM timeouts"), 0);
  assert.equal(named("How long does NAPALM wait?", null), 0);
});

Deno.test("an answer from a page of one heading keeps the SQuAD bar", () => {
  assert.equal(coverageOf(1, 0.28, undefined, false), "partial");
  assert.equal(coverageOf(1, SUPPORTED_AT, undefined, false), "supported");
});

Deno.test("nothing cited is unsupported, and a model's claims are weighed", () => {
  assert.equal(coverageOf(0, 0.99, undefined, true), "unsupported");
  assert.equal(coverageOf(1, 0.48, false, true), "partial");
  assert.equal(coverageOf(1, 0.2, false, true), "unsupported");
  assert.equal(coverageOf(1, 0.31, true, false), "supported");
  assert.equal(coverageOf(1, 0.29, true, true), "partial");
});

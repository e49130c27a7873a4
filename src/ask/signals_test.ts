import assert from "node:assert/strict";
import { parseQuestion as q } from "./question.ts";
import { passage } from "./passage_fixture.ts";
import { windowSignals } from "./signals.ts";

Deno.test("a window holds the question's words across a sentence and the next one", () => {
  const s = windowSignals(q("When was the Falcon gateway moved to port 7443?"), [
    passage("falcon", "Falcon", "The Falcon gateway serves HTTPS. It moved to port 7443 in 2024."),
    passage("tokens", "Tokens", "Tokens expire after an hour."),
  ]);
  assert.equal(s.window, 1);
  assert.equal(s.answerType, 1, "a year the question does not hold");
  assert.equal(s.absent, 0);
  assert.ok(s.windowMargin > 0.5);
  assert.ok(s.run > 0, "'port 7443' stands in the sentence as in the question");
});

Deno.test("words no passage holds count as absent, and a missing answer type is -1", () => {
  const s = windowSignals(q("How many moons does Neptune have?"), [
    passage("mars", "Mars", "Mars has moons named Phobos and Deimos."),
  ]);
  assert.ok(s.absent > 0.3);
  assert.ok(s.window < 0.7);
  assert.equal(windowSignals(q(""), []).window, 0);
});

import assert from "node:assert/strict";
import { parseQuestion as q } from "./question.ts";
import { alignment } from "./alignment.ts";
import { passage } from "./passage_fixture.ts";

Deno.test("the answering window holds the question's names in order, with a year near them", () => {
  const a = alignment(q("When was the Falcon gateway moved to Lisbon?"), [
    passage("falcon", "Falcon", "The Falcon gateway was moved to Lisbon in 2024. It serves HTTPS."),
    passage("tokens", "Tokens", "Tokens expire after an hour."),
  ]);
  assert.equal(a.names, 1, "Falcon and Lisbon are in the window");
  assert.equal(a.order, 1);
  assert.equal(a.nearAnswer, 1, "2024 stands next to the matched words");
  assert.equal(a.missingWeight, 0);
  assert.equal(a.rivals, 1);
});

Deno.test("a sibling that shares only topic words leaves the question's rare words missing", () => {
  const a = alignment(q("Who designed the Falcon gateway's rollback command in Porto?"), [
    passage("falcon-1", "Falcon", "The Falcon gateway serves requests on port 7443."),
    passage("falcon-2", "Falcon", "The Falcon gateway logs every request."),
  ]);
  assert.ok(a.missingWeight > a.heldWeight, "rollback, command, designed and Porto are missing");
  assert.equal(a.names, 0.5, "Falcon is, Porto is in no window");
  assert.equal(a.nearAnswer, -1, "no name new to the question");
  assert.equal(a.rivals, 2, "both pages match as well");
  assert.equal(alignment(q(""), []).heldWeight, 0);
});

import assert from "node:assert/strict";
import { withJoinedPairs } from "./joined_pairs.ts";

Deno.test("withJoinedPairs adds a phrasal verb written as one word", () => {
  assert.equal(withJoinedPairs("How do I back up a stream?"), "How do I back up a stream? backup");
  assert.equal(withJoinedPairs("Log In, then time out"), "Log In, then time out login timeout");
});

Deno.test("withJoinedPairs leaves a query without a phrasal verb as it is", () => {
  for (const q of ["the server's log", "log-in", "we back the plan", "up in", "backup"]) {
    assert.equal(withJoinedPairs(q), q);
  }
});

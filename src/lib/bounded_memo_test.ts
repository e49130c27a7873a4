import assert from "node:assert/strict";
import { boundedMemo } from "./bounded_memo.ts";

Deno.test("boundedMemo computes a short key once, a long key every time, and starts again past max", () => {
  const calls: string[] = [];
  const upper = boundedMemo(
    (key) => {
      calls.push(key);
      return key.toUpperCase();
    },
    2,
    8,
  );
  assert.equal(upper("ab"), "AB");
  assert.equal(upper("ab"), "AB");
  assert.deepEqual(calls, ["ab"]);
  // Longer than 8 characters: never kept, so a long token cannot pin its length in the memo.
  const long = "https://example.com/x";
  assert.equal(upper(long), long.toUpperCase());
  assert.equal(upper(long), long.toUpperCase());
  assert.deepEqual(calls, ["ab", long, long]);
  // A third short key clears the two kept: "ab" is computed again.
  upper("cd");
  upper("ef");
  upper("ab");
  assert.deepEqual(calls, ["ab", long, long, "cd", "ef", "ab"]);
});

import assert from "node:assert/strict";
import { writtenNameFirst, writtenNames } from "./written_name.ts";

Deno.test("writtenNames reads the names a query writes as a program does", () => {
  assert.deepEqual(
    writtenNames("Does CORS_ORIGIN_WHITELIST still work, and is client_auth_type read?"),
    ["cors_origin_whitelist", "client_auth_type"],
  );
  assert.deepEqual(writtenNames("Can successCondition check all values?"), ["successcondition"]);
  for (
    const q of [
      "a built-in, read-only page",
      "version 1.5",
      "run it with --agent",
      "mRNA",
      "siRNA",
      "iPhone",
    ]
  ) {
    assert.deepEqual(writtenNames(q), [], q);
  }
});

Deno.test("writtenNameFirst puts first the chunk that writes the name whole", () => {
  const hits = [1, 2, 3].map((id, i) => ({ chunk_id: id, page_id: 1, score: 1 - i * 0.2 }));
  const details = new Map([
    [1, { heading_path: ["REGEXES"], text: "Previously `CORS_ORIGIN_REGEX_WHITELIST`." }],
    [2, { heading_path: ["ORIGINS"], text: "Previously `CORS_ORIGIN_WHITELIST`, an alias." }],
    [3, { heading_path: ["Other"], text: "CORS_ORIGIN_WHITELIST" }],
  ]);
  const ranked = writtenNameFirst(hits, details, "Does CORS_ORIGIN_WHITELIST work?", 30);
  assert.deepEqual(ranked.map((h) => h.chunk_id), [2, 1, 3]);
  // The scores keep their order: the two trade places and scores.
  assert.deepEqual(ranked.map((h) => h.score), [1, 0.8, 0.6]);
  // A name written only as a part of a longer one is not written.
  assert.equal(writtenNameFirst(hits, details, "Is CORS_ORIGIN read?", 30), hits);
});

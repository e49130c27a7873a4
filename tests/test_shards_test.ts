import assert from "node:assert/strict";
import { SHARD_COUNT, shards, suiteFiles } from "./shards/shard.ts";

Deno.test("every test file of the suite runs in exactly one shard, browser journeys apart", async () => {
  const files = suiteFiles();
  assert.ok(files.includes("tests/test_shards_test.ts"));
  assert.ok(files.includes("src/markdown/chunks_test.ts"), "unit tests beside the code count too");
  assert.ok(files.includes("src/usage/chart_test.tsx"), "and the pages' tests");
  assert.ok(!files.some((f) => f.endsWith("_browser_test.ts")));
  assert.ok(!files.some((f) => f.startsWith("tests/fixtures/")));
  const cut = shards(files);
  assert.equal(cut.length, SHARD_COUNT);
  assert.deepEqual(cut.flat().sort(), files);
  // Each shard is a file `deno task test` names.
  for (let n = 1; n <= SHARD_COUNT; n++) {
    await Deno.stat(new URL(`./shards/shard_${n}.ts`, import.meta.url));
  }
});

Deno.test("shards are cut by measured time: the longest files go to different shards", () => {
  const cut = shards(["a", "b", "c", "d"], 2, { a: 10, b: 9, c: 2, d: 1 });
  assert.deepEqual(cut, [["a", "d"], ["b", "c"]]);
  // A file not measured yet counts as the median of those measured.
  assert.deepEqual(shards(["a", "new", "z"], 2, { a: 10, z: 1, y: 5 }), [["a"], ["new", "z"]]);
});

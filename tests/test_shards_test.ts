import assert from "node:assert/strict";
import {
  BROWSER_SHARD_COUNT,
  browserFiles,
  SHARD_COUNT,
  shards,
  suiteFiles,
} from "./shards/shard.ts";
import browserWeights from "./shards/browser_weights.json" with { type: "json" };

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

Deno.test("every browser journey runs in exactly one browser shard, and the task runs the shards", async () => {
  const files = browserFiles();
  assert.ok(files.includes("tests/web_browser_test.ts"));
  assert.ok(files.every((f) => f.endsWith("_browser_test.ts")));
  const cut = shards(files, BROWSER_SHARD_COUNT, browserWeights);
  assert.deepEqual(cut.flat().sort(), files);
  assert.ok(cut.every((shard) => shard.length > 0));
  for (let n = 1; n <= BROWSER_SHARD_COUNT; n++) {
    await Deno.stat(new URL(`./shards/browser_${n}.ts`, import.meta.url));
  }
  const tasks = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url))).tasks;
  assert.match(tasks["test:browser"], /tests\/shards\/browser_\*\.ts$/);
});

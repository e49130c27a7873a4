import assert from "node:assert/strict";
import { lineDiff } from "./line_diff.ts";

Deno.test("lineDiff: a last line without its newline is not shown removed and added again", () => {
  const diff = lineDiff("# Setup\n\nInstall.\n", "# Setup\n\nInstall.\n\nThen run.");
  assert.deepEqual([diff.added, diff.removed], [2, 0]);
  const same = lineDiff("# Setup\nInstall.", "# Setup\nInstall.\n");
  assert.deepEqual([same.added, same.removed], [0, 0]);
});

Deno.test("lineDiff: a changed last line is still a change", () => {
  const diff = lineDiff("a\nb\n", "a\nc");
  assert.deepEqual([diff.added, diff.removed], [1, 1]);
});

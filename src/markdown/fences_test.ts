import assert from "node:assert/strict";
import { closesFence, fenceOf } from "./fences.ts";
import { maskCode } from "./links.ts";

Deno.test("a fence closes on the same character, at least as many, and nothing after", () => {
  assert.equal(fenceOf("   ```python"), "```");
  assert.equal(fenceOf("    ```"), null, "four spaces in is indented code, not a fence");
  assert.ok(closesFence("````", "```"));
  assert.ok(!closesFence("~~~", "```"));
  assert.ok(!closesFence("```python", "```"), "an info string opens, it does not close");
});

Deno.test("the code mask keeps a block open past a fence line with an info string", () => {
  const md = "```\n```python\n[a](b)\n```\n[c](d)";
  const masked = maskCode(md);
  assert.doesNotMatch(masked, /\[a\]/, "the link inside the block is masked");
  assert.match(masked, /\[c\]\(d\)/, "the link after the block is not");
});

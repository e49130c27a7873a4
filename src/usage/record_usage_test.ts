import assert from "node:assert/strict";
import { usageClient } from "./record_usage.ts";

Deno.test("usageClient names a User-Agent by its first product, other names as given", () => {
  assert.equal(usageClient("claude-code/2.0.1 (cli)"), "claude-code");
  assert.equal(usageClient("Mozilla/5.0 (X11; Linux x86_64)"), "Mozilla");
  assert.equal(usageClient("Claude Desktop"), "Claude Desktop");
  assert.equal(usageClient("  node "), "node");
  assert.equal(usageClient(null), "");
  assert.equal(usageClient("x".repeat(300)).length, 64);
});

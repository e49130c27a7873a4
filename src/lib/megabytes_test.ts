import assert from "node:assert/strict";
import { megabytes } from "./megabytes.ts";

Deno.test("a size is said in megabytes, and in kilobytes under a tenth of one", () => {
  assert.equal(megabytes(0), "0 MB");
  assert.equal(megabytes(7 * 1024), "7 KB");
  assert.equal(megabytes(100), "1 KB");
  assert.equal(megabytes(600_000), "0.6 MB");
  assert.equal(megabytes(100 * 1024 * 1024), "100 MB");
});

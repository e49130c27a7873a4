import assert from "node:assert/strict";
import { sizedLru } from "./sized_lru.ts";

Deno.test("a sized LRU drops the least recently used values past its budget", () => {
  const cache = sizedLru<string>(400, (s) => s.length);
  cache.set("a", "x".repeat(90));
  cache.set("b", "x".repeat(90));
  cache.set("c", "x".repeat(90));
  assert.equal(cache.get("a")?.length, 90); // a is now the most recent
  cache.set("d", "x".repeat(99));
  cache.set("e", "x".repeat(99));
  assert.equal(cache.get("b"), undefined, "b was the least recently used");
  assert.ok(cache.get("a") && cache.get("e"));
  assert.ok(cache.total <= 400, `holds ${cache.total}`);
});

Deno.test("a sized LRU keeps no value over a quarter of its budget", () => {
  const cache = sizedLru<string>(400, (s) => s.length);
  cache.set("small", "x");
  cache.set("big", "x".repeat(101));
  assert.equal(cache.get("big"), undefined);
  assert.equal(cache.get("small"), "x");
});

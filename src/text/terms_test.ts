import assert from "node:assert/strict";
import { contentTerms, lightStem, stem } from "./terms.ts";

Deno.test("a protocol's secure form is another word: https does not meet http", () => {
  assert.notEqual(stem("https"), stem("http"));
  assert.notEqual(stem("ftps"), stem("ftp"));
  // Plurals still meet their singular.
  assert.equal(stem("steps"), stem("step"));
  assert.equal(stem("laptops"), stem("laptop"));
  const terms = contentTerms("Configures the HTTPS listener port");
  assert.ok(!terms.has(stem("http")));
});

Deno.test("the one who does what an -en verb says meets the verb: listener meets listen", () => {
  assert.equal(stem("listener"), stem("listen"));
  assert.equal(stem("listeners"), stem("listening"));
  assert.equal(stem("shortener"), stem("shorten"));
  // Other -er words stay whole.
  assert.equal(stem("server"), "server");
  assert.equal(stem("user"), "user");
  assert.equal(stem("opener"), "opener");
});

Deno.test("the offline embedder's stemmer is unchanged (its vectors are stored)", () => {
  assert.equal(lightStem("https"), "http");
  assert.equal(lightStem("listener"), "listener");
});

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

Deno.test("a doubled consonant before -ing or -ed is one, and a plural of an -ing word meets it", () => {
  assert.equal(stem("flapping"), stem("flap"));
  assert.equal(stem("logging"), stem("logs"));
  assert.equal(stem("stopped"), stem("stop"));
  assert.equal(stem("committed"), stem("commits"));
  assert.equal(stem("settings"), stem("setting"));
  assert.equal(stem("mappings"), stem("mapping"));
  // ll, ss and zz stay; a word of three letters stays whole.
  assert.equal(stem("filled"), "fill");
  assert.equal(stem("passing"), "pass");
  assert.equal(stem("added"), stem("add"));
  // The embedder's stemmer is not this one.
  assert.equal(lightStem("flapping"), "flapp");
});

Deno.test("the halves of a negative contraction are not content words", () => {
  assert.deepEqual([...contentTerms("so it doesn't flap, isn't it").keys()], ["flap"]);
});

Deno.test("a number written as a word meets its digits", () => {
  assert.equal(stem("three"), stem("3"));
  assert.equal(stem("one"), stem("1"));
  assert.deepEqual([...contentTerms("a cluster of three servers").keys()], [
    "cluster",
    "3",
    "server",
  ]);
  assert.equal(lightStem("three"), "three", "the embedder's words are as they were indexed");
});

Deno.test("the act an -ate verb names meets the verb, in words of eight letters or more", () => {
  assert.equal(stem("rotation"), stem("rotate"));
  assert.equal(stem("rotations"), stem("rotated"));
  assert.equal(stem("validation"), stem("validating"));
  assert.notEqual(stem("station"), stem("state"));
  assert.notEqual(stem("nation"), stem("nats"));
  assert.equal(lightStem("rotation"), "rotation", "the embedder's words are as they were indexed");
});

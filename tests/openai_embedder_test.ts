import assert from "node:assert/strict";
import { testConfig } from "./helpers.ts";
import { startFakeOpenAi } from "./fake_openai.ts";
import { createOpenAiEmbedder } from "../src/search/openai_embedder.ts";
import { EmbedderError } from "../src/lib/embedder.ts";

function config(url: string, env: Record<string, string> = {}) {
  return testConfig({
    EMBEDDER: "openai",
    EMBEDDING_BASE_URL: url,
    EMBEDDING_MODEL: "fake-embed",
    ...env,
  }).embedding;
}

Deno.test("the openai embedder batches texts and returns unit vectors in order", async () => {
  const fake = startFakeOpenAi(8);
  try {
    const embedder = await createOpenAiEmbedder(config(fake.url, { EMBEDDING_BATCH_SIZE: "2" }));
    assert.equal(embedder.dimensions, 8);
    assert.equal(embedder.id, "openai:fake-embed:8");
    const vectors = await embedder.embed(["alpha beta", "gamma", "alpha beta", "", "delta"]);
    assert.equal(vectors.length, 5);
    assert.deepEqual(vectors[0], vectors[2]);
    const norm = Math.hypot(...vectors[1]!);
    assert.ok(Math.abs(norm - 1) < 1e-6);
    // One probe for the size, then batches of two: 2 + 2 + 1.
    assert.deepEqual(fake.requests.slice(1).map((r) => r.input.length), [2, 2, 1]);
    assert.ok(
      fake.requests.every((r) => r.model === "fake-embed" && r.input.every((t) => t.length > 0)),
    );
  } finally {
    await fake.close();
  }
});

Deno.test("the openai embedder asks for the configured dimensions and checks what comes back", async () => {
  const fake = startFakeOpenAi(8);
  try {
    const embedder = await createOpenAiEmbedder(config(fake.url, { EMBEDDING_DIMENSIONS: "16" }));
    assert.equal((await embedder.embed(["x"]))[0]!.length, 16);
    assert.equal(fake.requests[0]!.dimensions, 16);
    fake.forceDimensions(4);
    await assert.rejects(embedder.embed(["x"]), /returned 4 dimensions, expected 16/);
  } finally {
    await fake.close();
  }
});

Deno.test("the openai embedder retries server errors and rate limits, then succeeds", async () => {
  const fake = startFakeOpenAi(8);
  try {
    const embedder = await createOpenAiEmbedder(config(fake.url, { EMBEDDING_MAX_RETRIES: "3" }));
    fake.failNext(2, 503);
    assert.equal((await embedder.embed(["x"])).length, 1);
    fake.failNext(1, 429);
    assert.equal((await embedder.embed(["y"])).length, 1);
  } finally {
    await fake.close();
  }
});

Deno.test("the openai embedder fails with a clear error when the endpoint is down or refuses", async () => {
  const fake = startFakeOpenAi(8);
  const embedder = await createOpenAiEmbedder(config(fake.url, { EMBEDDING_MAX_RETRIES: "1" }));
  fake.failNext(5, 401);
  await assert.rejects(embedder.embed(["x"]), (e: Error) => {
    assert.ok(e instanceof EmbedderError);
    assert.match(e.message, /HTTP 401/);
    return true;
  });
  fake.failNext(0, 200);
  fake.delay(1500);
  const slow = await createOpenAiEmbedder(
    config(fake.url, {
      EMBEDDING_DIMENSIONS: "8",
      EMBEDDING_TIMEOUT_MS: "200",
      EMBEDDING_MAX_RETRIES: "0",
    }),
  );
  await assert.rejects(slow.embed(["x"]), /timed out/i);
  fake.delay(0);
  await fake.close();
  const down = await createOpenAiEmbedder(
    config(fake.url, { EMBEDDING_DIMENSIONS: "8", EMBEDDING_MAX_RETRIES: "0" }),
  );
  await assert.rejects(
    down.embed(["x"]),
    (e: Error) => e instanceof EmbedderError && /Connection error/.test(e.message),
  );
});

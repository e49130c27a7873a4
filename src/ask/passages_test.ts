import assert from "node:assert/strict";
import { spread } from "./passages.ts";

const rows = (hits: { chunk_id: number }[]) =>
  new Map(hits.map((h) => [h.chunk_id, { text: `chunk ${h.chunk_id}` }]));

// Chunk ids are page * 10 + the chunk's place in the ranking of its page.
const ranked = (scores: [page: number, score: number][]) =>
  scores.map(([page, score], i) => ({ chunk_id: page * 10 + i, page_id: page, score }));

Deno.test("passages: two a page while several pages are relevant", () => {
  const hits = ranked([[1, 0.94], [1, 0.93], [1, 0.9], [2, 0.85], [3, 0.8], [1, 0.78], [4, 0.3]]);
  assert.deepEqual(
    spread(hits, rows(hits)).map((h) => h.page_id),
    [1, 1, 2, 3, 4],
  );
});

Deno.test("passages: the one page search ranks relevant keeps its relevant chunks", () => {
  // A reference page: its settings rank first, the section that answers fifth; the next page
  // scores below half of the best.
  const hits = ranked([
    [1, 0.94],
    [1, 0.93],
    [1, 0.93],
    [1, 0.79],
    [1, 0.78],
    [1, 0.73],
    [2, 0.41],
    [3, 0.4],
    [1, 0.39],
    [4, 0.38],
  ]);
  const chosen = spread(hits, rows(hits));
  assert.deepEqual(chosen.map((h) => h.page_id), [1, 1, 1, 1, 1, 1, 2, 3]);
  assert.ok(chosen.includes(hits[4]!));
});

Deno.test("passages: chunks without text are left out", () => {
  const hits = ranked([[1, 0.9], [2, 0.8]]);
  const texts = new Map([[hits[0]!.chunk_id, { text: " " }], [hits[1]!.chunk_id, { text: "x" }]]);
  assert.deepEqual(spread(hits, texts), [hits[1]]);
});

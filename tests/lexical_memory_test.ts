import assert from "node:assert/strict";

// The lexical index cache bounds its indexes by `indexBytes` (256 MiB by default): the bound
// holds only if that estimate is the memory an index takes. The estimate counted 80 bytes a
// term for what is about 700 (issue 33: a cache at its bound held about five times it).

type Figures = { terms: number; postings: number; measured: number; estimated: number };

Deno.test("indexBytes is within 1.5× of the memory the docs' index takes, built either way", async () => {
  const root = new URL("..", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--v8-flags=--expose-gc", "--allow-read", "tests/lexical_memory_probe.ts"],
    cwd: root,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.equal(out.code, 0);
  const figures = JSON.parse(new TextDecoder().decode(out.stdout)) as Record<string, Figures>;
  for (const way of ["incremental", "packed"]) {
    const { terms, measured, estimated } = figures[way]!;
    assert.ok(terms > 2_000, `a corpus of some size: ${terms} terms`);
    const ratio = measured / estimated;
    assert.ok(
      ratio > 1 / 1.5 && ratio < 1.5,
      `${way}: measured ${measured}, estimated ${estimated}`,
    );
  }
});

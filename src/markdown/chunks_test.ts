import assert from "node:assert/strict";
import { chunkMarkdown, MAX_WORDS } from "./chunks.ts";

Deno.test("chunks follow headings and carry their heading path and anchor", () => {
  const chunks = chunkMarkdown(
    "Intro text.\n# Guide\n## Install\nRun it.\n## Install\nAgain.\n```\n# not a heading\n```",
  );
  assert.deepEqual(chunks.map((c) => [c.headingPath, c.anchor]), [
    [[], ""],
    [["Guide", "Install"], "install"],
    [["Guide", "Install"], "install-1"],
  ]);
  assert.match(chunks[2]!.text, /# not a heading/);
});

Deno.test("a long section is split into overlapping passages of bounded size", () => {
  const sentence = (i: number) => `Sentence number ${i} says something about topic ${i}.`;
  const body = "# Long\n" + Array.from({ length: 200 }, (_, i) => sentence(i)).join(" ");
  const chunks = chunkMarkdown(body);
  assert.ok(chunks.length >= 4, `expected several chunks, got ${chunks.length}`);
  for (const c of chunks) assert.ok(c.text.split(/\s+/).length <= MAX_WORDS + 50);
  const lastWords = chunks[0]!.text.split(/\s+/).slice(-5).join(" ");
  assert.ok(
    chunks[1]!.text.includes(lastWords),
    "the next passage starts with the previous one's tail",
  );
});

Deno.test("a page written with CRLF line endings is split at its headings too", () => {
  const chunks = chunkMarkdown("# Guide\r\n\r\nIntro.\r\n\r\n## Setup\r\n\r\nRun it.\r\n");
  assert.deepEqual(chunks.map((c) => c.headingPath), [["Guide"], ["Guide", "Setup"]]);
  assert.deepEqual(chunks.map((c) => c.anchor), ["guide", "setup"]);
});

Deno.test("a heading keeps its inline code in the heading path and anchor", () => {
  const chunks = chunkMarkdown(
    "# Ping\n## `terminatingStatusCode`\nText.\n## Example of Depth & `X-Forwarded-For`\nMore.",
  );
  assert.deepEqual(chunks.map((c) => [c.headingPath.at(-1), c.anchor]), [
    ["`terminatingStatusCode`", "terminatingstatuscode"],
    ["Example of Depth & `X-Forwarded-For`", "example-of-depth--x-forwarded-for"],
  ]);
});

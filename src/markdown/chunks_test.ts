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

Deno.test("a long table is split between its rows, each passage under the table's header", () => {
  const rows = Array.from(
    { length: 120 },
    (_, i) =>
      `| \`SETTING_${i}\` | No | ${i * 10} | What setting ${i} does. It has two sentences. |`,
  );
  const header = "| Name | Required | Default | Description |\n| :--- | :--- | :--- | :--- |";
  const chunks = chunkMarkdown(`# Reference\n\n${header}\n${rows.join("\n")}\n`);
  assert.ok(chunks.length >= 3, `expected several passages, got ${chunks.length}`);
  const seen = new Set<string>();
  for (const c of chunks) {
    assert.ok(c.text.startsWith(header), "each passage opens with the table's header");
    const lines = c.text.split("\n").slice(2);
    for (const line of lines) {
      assert.match(line, /^\| `SETTING_\d+` \| No \| \d+ \| What setting \d+ does\. It has two/);
      seen.add(line);
    }
  }
  assert.equal(seen.size, rows.length, "every row is in a passage, whole");
});

Deno.test("a long code block is split between its lines, each passage fenced", () => {
  const code = Array.from({ length: 200 }, (_, i) => `  option_${i}: value ${i} # comment`);
  const chunks = chunkMarkdown(
    `# Config\n\n\`\`\`yaml\n${code.join("\n")}\n\`\`\`\n\nAfter the block.`,
  );
  assert.ok(chunks.length >= 3, `expected several passages, got ${chunks.length}`);
  for (const c of chunks.slice(0, -1)) {
    assert.ok(
      c.text.startsWith("```yaml\n") || c.text.includes("\n```yaml\n"),
      c.text.slice(0, 80),
    );
    assert.ok(c.text.includes("\n```"), "the fence is closed");
    assert.ok(!/value \d+ # comment {1}option_/.test(c.text), "no two lines run together");
  }
  assert.match(chunks.at(-1)!.text, /After the block\.$/);
});

Deno.test("a long code block with blank lines is one block: every passage fenced, indentation kept", () => {
  // A configuration whose stanzas are separated by blank lines (NGINX's `location` blocks).
  const stanzas = Array.from(
    { length: 100 },
    (_, i) => `    location /app${i}/ {\n        proxy_pass http://127.0.0.1:${8000 + i};\n    }`,
  );
  const chunks = chunkMarkdown(
    `# Config\n\n\`\`\`nginx\nserver {\n${stanzas.join("\n\n")}\n}\n\`\`\`\n\nAfter the block.`,
  );
  assert.ok(chunks.length >= 2, `expected several passages, got ${chunks.length}`);
  for (const c of chunks.filter((c) => c.text.includes("location"))) {
    assert.match(c.text, /^```nginx\n/, c.text.slice(0, 80));
    assert.match(c.text, /\n```(\n|$)/, "the fence is closed");
    // A stanza after a blank line keeps its indentation.
    assert.doesNotMatch(c.text, /(^|\n)location/, c.text.slice(0, 200));
  }
});

Deno.test("a long list keeps one item a line across passages", () => {
  const items = Array.from({ length: 90 }, (_, i) => `- Item ${i} is about step ${i} of the job.`);
  const chunks = chunkMarkdown(`# Steps\n\n${items.join("\n")}`);
  assert.ok(chunks.length >= 2);
  for (const c of chunks) {
    for (const line of c.text.split("\n")) {
      assert.match(line, /^- Item \d+ is about step \d+ of the job\.$/);
    }
  }
});

Deno.test("a heading's attribute list gives its anchor and a link shows its text, as the site shows them", () => {
  const chunks = chunkMarkdown(
    "# Configuration\n" +
      "#### [`PAPERLESS_PORT=<port>`](#PAPERLESS_PORT) {#PAPERLESS_PORT}\nThe port.\n" +
      '## Docker {#docker data-toc-label="Docker"}\nRun it.\n' +
      "## `cli exec` [#4103](https://example.com/pull/4103)\nExec.\n" +
      "## Using {x=1}\nNot an attribute list: no id or class.",
  );
  assert.deepEqual(chunks.map((c) => [c.headingPath.at(-1), c.anchor]), [
    ["`PAPERLESS_PORT=<port>`", "PAPERLESS_PORT"],
    ["Docker", "docker"],
    ["`cli exec` #4103", "cli-exec-4103"],
    ["Using {x=1}", "using-x1"],
  ]);
});

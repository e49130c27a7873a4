import assert from "node:assert/strict";
import { writePage } from "../src/pages/write_page.ts";
import { createWiki } from "../src/wikis/wikis.ts";
import { freshDb, testApp } from "./helpers.ts";

const by = { source: "test" };

type Found = { results: { page: string; section: string | null; url: string; snippet: string }[] };

// A flags reference whose table has a cell with an unclosed backtick (as a real one has:
// "`--ports_file_dir"), and a note with backslash-escaped backticks.
const flags = `# Flags

## Server Options

| Flag | Description |
| --- | --- |
| \`-p\`, \`--port\` | Client port (default: 4222). |
| \`--ports_file_dir | Creates a ports file in the given directory. |
| \`-m\`, \`--http_port\` | HTTP port for monitoring. |

## Logging Options

The command \`kill\` with \\\`\\\`\\\` reopens the log file.

| Flag | Description |
| --- | --- |
| \`-l\`, \`--log\` | File to redirect log output. |

## Cluster Options

| Flag | Description |
| --- | --- |
| \`--routes\` | Comma-separated list of cluster URLs to solicit and connect. |
`;

Deno.test("a stray or escaped backtick does not hide the headings after it from search", async () => {
  await using db = await freshDb();
  const { app, deps } = testApp(db);
  await createWiki(db, { id: "ops", visibility: "public" });
  await writePage(deps, { wikiId: "ops", path: "flags", markdown: flags }, by);
  const search = async (q: string) => {
    const res = await app.request(`/api/v1/public/wikis/ops/search?q=${encodeURIComponent(q)}`);
    assert.equal(res.status, 200);
    return ((await res.json()) as Found).results[0]!;
  };
  const routes = await search("solicit routes");
  assert.equal(routes.section, "Flags > Cluster Options");
  assert.match(routes.url, /#cluster-options$/);
  assert.doesNotMatch(routes.snippet, /##|Logging Options/);
  const log = await search("redirect log output");
  assert.equal(log.section, "Flags > Logging Options");
});

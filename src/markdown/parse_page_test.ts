import assert from "node:assert/strict";
import { parsePage } from "./parse_page.ts";

Deno.test("the title comes from front matter, then the first heading, then the path", async () => {
  assert.equal(
    (await parsePage("p", "---\ntitle: From front\n---\n# Heading")).title,
    "From front",
  );
  assert.equal((await parsePage("p", "Intro\n\n## First *heading*\n")).title, "First heading");
  assert.equal((await parsePage("Guides/Setup", "no heading here")).title, "Guides/Setup");
  await assert.rejects(
    parsePage("p", "---\ntitle: [unclosed\n---\nbody"),
    /Front matter is not valid YAML/,
  );
});

import assert from "node:assert/strict";
import { buildSnippet } from "./snippet.ts";

Deno.test("a snippet keeps inline code holding < or > and pairs each span with its own backticks", () => {
  // A menu's path: the `>` between two spans is text, not a span of its own.
  assert.equal(
    buildSnippet("Go to `Scopes` > `Bot Token Scopes` and add `chat:write`.", "scopes").text,
    "Go to Scopes > Bot Token Scopes and add chat:write.",
  );
  assert.equal(
    buildSnippet("Set `a` when x > 5, `<b>` otherwise.", "set").text,
    "Set a when x > 5, `<b>` otherwise.",
  );
});

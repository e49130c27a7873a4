import assert from "node:assert/strict";
import { pickSentences } from "./extractive.ts";
import { listsNames } from "./sentence_kinds.ts";
import { passage } from "./passage_fixture.ts";
import type { Passage } from "./passages.ts";
import { wordCount } from "../text/sentences.ts";

/** A passage of `markdown` holding its text from `from` on, as `located` gives it. */
const windowOf = (markdown: string, from: number, chunkId: number, n: number): Passage => ({
  ...passage("Keys", "Keys", markdown),
  chunkId,
  n,
  text: markdown.slice(from),
  offset: from,
});

Deno.test("a sentence in two overlapping windows of one page is cited once", () => {
  const markdown = "# Keys\n\nRevoke a token with the Revoke button beside it. " +
    "A revoked token gets 401 at once. Tokens can expire after a number of days.";
  const second = markdown.indexOf("A revoked");
  const { picks } = pickSentences("Does a revoked token get 401 at once?", [
    windowOf(markdown, 8, 1, 1),
    windowOf(markdown, second, 2, 2),
  ]);
  const starts = picks.map((p) => p.start);
  assert.deepEqual(starts, [...new Set(starts)], JSON.stringify(picks.map((p) => p.quote)));
  for (const p of picks) assert.equal(markdown.slice(p.start, p.end), p.quote);
});

Deno.test("an announcement stays only right before its own continuation", () => {
  // The code block after the colon is not asked for, so it does not follow; the sentence after
  // the block, picked too, does not pass for the announcement's continuation.
  const md =
    "# Tokens\n\nYou list, revoke and rotate tokens in the web app at /account/tokens.\n\n" +
    "## Shell\n\nTo revoke and rotate tokens from a shell, type this:\n\n" +
    "```\ncurl -X DELETE https://h/tokens/1\ncurl -X POST https://h/tokens\n```\n\n" +
    "Rotating tokens and revoking them both take effect at once, everywhere.\n";
  const a = md.indexOf("You list");
  const b = md.indexOf("To revoke");
  const window = (from: number, to: number, chunkId: number): Passage => ({
    ...passage("Tokens", "Tokens", md.slice(from, to).trim()),
    markdown: md,
    offset: from,
    chunkId,
    n: chunkId,
  });
  const { picks } = pickSentences("How do I revoke and rotate tokens everywhere at once?", [
    window(a, b, 1),
    { ...window(b, md.length, 2), section: "Tokens > Shell" },
  ]);
  assert.ok(picks.length >= 2, JSON.stringify(picks.map((p) => p.plain)));
  for (const p of picks.slice(1)) assert.doesNotMatch(p.plain, /:$/, p.plain);
  for (const p of picks) assert.equal(md.slice(p.start, p.end), p.quote);
});

Deno.test("Chinese and Japanese words are counted by character: a sentence is not short, a row's cell is not a name", () => {
  assert.equal(wordCount("Private endpoint only."), 3);
  assert.ok(wordCount("トークンは秘密の文字列です。") >= 10);
  assert.ok(wordCount("令牌是一段秘密字符串") >= 10);
  assert.ok(!listsNames("| `create-token` | 创建一个新的令牌 |"));
  assert.ok(listsNames("| `create-space`, `create-token` | See [[Tokens]] |"));
});

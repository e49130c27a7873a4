import assert from "node:assert/strict";
import { parseQuestion as q } from "./question.ts";
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
  const { picks } = pickSentences(q("Does a revoked token get 401 at once?"), [
    windowOf(markdown, 8, 1, 1),
    windowOf(markdown, second, 2, 2),
  ]);
  const starts = picks.map((p) => p.start);
  assert.deepEqual(starts, [...new Set(starts)], JSON.stringify(picks.map((p) => p.quote)));
  for (const p of picks) assert.equal(markdown.slice(p.start, p.end), p.quote);
});

Deno.test("an announcement stays only right before its own continuation", () => {
  // The code block after the colon is not asked for, so it does not follow; the sentence after
  // the block, picked too, does not pass for the announcement's continuation. (One section: a
  // page of several keeps its answer to the best sentence's, below.)
  const md =
    "# Tokens\n\nYou list, revoke and rotate tokens in the web app at /account/tokens.\n\n" +
    "To revoke and rotate tokens from a shell, type this:\n\n" +
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
  const { picks } = pickSentences(q("How do I revoke and rotate tokens everywhere at once?"), [
    window(a, b, 1),
    window(b, md.length, 2),
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

Deno.test("a documentation answer keeps to the section of its best sentence", () => {
  // The table row's section answers; the SNI sentence of another page shares "default" and
  // "clients", and was glued after it as a second answer.
  const allow = "# IP allow list\n\nFilter requests by address.\n\n## Options\n\n" +
    "The rejectStatusCode option sets the HTTP status sent to rejected clients; by default it is 403.\n";
  const tls = "# TLS\n\nIntro.\n\n## SNI\n\nBy default, if rejected clients do not send SNI, " +
    "the default certificate is used.\n";
  const at = (md: string, page: string, pageId: number, n: number): Passage => ({
    ...passage(page, page, md),
    pageId,
    chunkId: n,
    n,
    section: `${page} > ${md.includes("SNI") ? "SNI" : "Options"}`,
  });
  const { picks } = pickSentences(
    q("What HTTP status does the allow list send to rejected clients by default?"),
    [at(allow, "IP allow list", 1, 1), at(tls, "TLS", 2, 2)],
  );
  assert.match(picks[0]!.quote, /rejectStatusCode/);
  assert.deepEqual(picks.map((p) => p.passage.page), ["IP allow list"]);
});

Deno.test("search and the picker agree when the best sentence is in the first passage and every name asked is there", () => {
  const md = "# Logging\n\nThe server writes a log.\n\n## Timestamp\n\n" +
    "If `-T false` then log entries are not timestamped. Default is true.\n";
  const first = { ...passage("logging", "Logging", md), section: "Logging > Timestamp" };
  const other = {
    ...passage("service", "Service", "# Service\n\nThe daemon runs under systemd."),
    n: 2,
    pageId: 2,
  };
  const story = "journald already stamps each line, so the timestamps in the server's own log " +
    "lines are duplicated. How do we drop them?";
  assert.equal(pickSentences(q(story), [first, other]).agreed, true);
  // The best sentence is in the second passage: search ranked another first.
  assert.equal(pickSentences(q(story), [other, { ...first, n: 2 }]).agreed, false);
  // A name no passage holds ("Graylog") is what the question is about.
  const named = "Can we send the timestamped log entries to Graylog?";
  assert.equal(pickSentences(q(named), [first, other]).agreed, false);
  // One word shared ("log") is a coincidence.
  assert.equal(
    pickSentences(q("Who signs the company's log books?"), [first, other]).agreed,
    false,
  );
});

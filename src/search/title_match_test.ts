import assert from "node:assert/strict";
import { matchTitles, type TitleEntry, withinOneEdit, wordScore } from "./title_match.ts";

const entry = (title: string, section: string | null = null): TitleEntry => ({
  title,
  section,
  href: `/w/kb/${title}${section ? `#${section}` : ""}`,
  path: title,
});

Deno.test("withinOneEdit allows one letter added, left out or changed, never two", () => {
  assert.equal(withinOneEdit("configuraton", "configuration"), true);
  assert.equal(withinOneEdit("configuration", "configuraton"), true);
  assert.equal(withinOneEdit("retantion", "retention"), true);
  assert.equal(withinOneEdit("retantoin", "retention"), false);
  assert.equal(withinOneEdit("abc", "abc"), true);
  assert.equal(withinOneEdit("abc", "abcde"), false);
});

Deno.test("wordScore ranks exact above prefix above one typo, typos only in words of five letters", () => {
  assert.equal(wordScore("retention", "retention"), 3);
  assert.equal(wordScore("reten", "retention"), 2);
  assert.equal(wordScore("configuraton", "configuration"), 1);
  assert.equal(wordScore("configuratn", "configuration"), 1, "a typo in a half-typed word");
  assert.equal(wordScore("tokn", "token"), 0, "four letters: no typo allowed");
  assert.equal(wordScore("setup", "settings"), 0);
});

Deno.test("matchTitles puts the exact title first, then prefixes and typos, titles before headings", () => {
  const entries = [
    entry("Retention policy"),
    entry("Audit", "Retention"),
    entry("Configuration"),
    entry("Self-hosting", "Configurations"),
    entry("Configuratio"),
  ];
  assert.deepEqual(matchTitles(entries, "reten").map((m) => m.href), [
    "/w/kb/Retention policy",
    "/w/kb/Audit#Retention",
  ]);
  const typo = matchTitles(entries, "configuraton").map((m) => m.href);
  assert.deepEqual(typo, [
    "/w/kb/Configuration",
    "/w/kb/Self-hosting#Configurations",
  ]);
  const exact = matchTitles(entries, "configuration").map((m) => m.href);
  assert.equal(exact[0], "/w/kb/Configuration", "the exact word first");
  assert.deepEqual(matchTitles(entries, "retention policy").map((m) => m.title), [
    "Retention policy",
  ]);
  assert.deepEqual(matchTitles(entries, "zzzzz"), []);
});

import type { Passage } from "./passages.ts";

/** A retrieved passage for the ask module's unit tests: one chunk of `page`, all of its text. */
export const passage = (page: string, title: string, text: string): Passage => ({
  n: 1,
  chunkId: 1,
  pageId: 1,
  wiki: "w",
  page,
  title,
  section: null,
  url: "",
  revision: 1,
  updatedAt: new Date(0),
  text,
  score: 0,
  markdown: text,
  offset: 0,
  freshness: {},
});

import type { Deps } from "../deps.ts";
import { rankChunks, withTexts } from "../search/search_wikis.ts";
import { sourceFreshness } from "../sync/freshness.ts";
import { pageUrl } from "../wikis/urls.ts";
import { selectPageMarkdown } from "./store.ts";
import { contentTerms } from "../search/terms.ts";
import { definesTopic, definitionTopic, sameTerms } from "./topic.ts";
import { plainText, splitSentences } from "./sentences.ts";
import { findLoosely } from "./extractive.ts";

/** A retrieved passage, numbered for synthesis. */
export type Passage = {
  n: number;
  chunkId: number;
  pageId: number;
  wiki: string;
  page: string;
  title: string;
  section: string | null;
  url: string;
  revision: number;
  updatedAt: Date;
  text: string;
  score: number;
  /** The page's markdown at `revision`, which quotes are cut from. */
  markdown: string;
  /** Where `text` starts in `markdown`, or -1 when it could not be found there. */
  offset: number;
  /** Where the page stands against its Git source (synced spaces), read with the ranking. */
  freshness: ReturnType<typeof sourceFreshness>;
};

/** Passages handed to synthesis, and at most this many from one page. */
export const MAX_PASSAGES = 8;
const PER_PAGE = 2;
/** How many of the best chunks are considered for passages. */
const CONSIDERED = 40;

/**
 * The best passages for a question: search's chunk ranking (`rankChunks`: hybrid, re-scored, a
 * page the question names exactly first) with the texts of its best `CONSIDERED` chunks, a few
 * per page. A question that asks what something is also gets the lead of the page named
 * after it and the chunks that define it (`leadOfNamedPage`).
 */
export async function retrievePassages(
  deps: Pick<Deps, "db" | "embedder" | "log" | "config">,
  wikiIds: string[],
  question: string,
): Promise<Passage[]> {
  const { hits, rows } = await rankChunks(deps, wikiIds, question, "hybrid", {
    texts: CONSIDERED,
  });
  const considered = leadOfNamedPage(
    question,
    await withTexts(deps, hits.slice(0, CONSIDERED), rows),
    rows,
  );
  const markdown = new Map(
    (await selectPageMarkdown(deps.db, [...new Set(considered.map((h) => h.page_id))]))
      .map((r) => [Number(r.id), r.markdown]),
  );
  const perPage = new Map<number, number>();
  const passages: Passage[] = [];
  for (const hit of considered) {
    const row = rows.get(hit.chunk_id)!;
    if (!row.text?.trim()) continue;
    const count = perPage.get(row.page_id) ?? 0;
    if (count >= PER_PAGE) continue;
    perPage.set(row.page_id, count + 1);
    const url = pageUrl(deps.config.baseUrl, row.wiki_id, row.path);
    passages.push({
      n: passages.length + 1,
      chunkId: row.chunk_id,
      pageId: row.page_id,
      wiki: row.wiki_id,
      page: row.path,
      title: row.title,
      section: row.heading_path.length > 0 ? row.heading_path.join(" > ") : null,
      url: row.anchor ? `${url}#${row.anchor}` : url,
      revision: row.revision,
      updatedAt: row.updated_at,
      ...located(markdown.get(Number(row.page_id)) ?? "", row.text),
      score: hit.score,
      markdown: markdown.get(Number(row.page_id)) ?? "",
      freshness: sourceFreshness(row),
    });
    if (passages.length >= MAX_PASSAGES) break;
  }
  return passages;
}

/**
 * A chunk's text as it stands in its page. A window of a long section (`chunkMarkdown`) starts
 * with the last words of the window before it, joined by single spaces and cut mid-sentence:
 * "and Enter or Tab. - **Saving**: Save or Ctrl+S." read as one sentence gluing two list items,
 * and one starting in lower case. Such a text is found in the markdown (white space loosely),
 * moved back to the start of the sentence it begins in (found within its block: the paragraph
 * or the list item), and given as the page's own bytes, line breaks and all.
 */
export function located(markdown: string, text: string): { text: string; offset: number } {
  const at = markdown.indexOf(text);
  if (at >= 0) return { text, offset: at };
  const found = findLoosely(markdown, text);
  if (!found) return { text, offset: -1 };
  const [start, end] = found;
  let from = markdown.lastIndexOf("\n", start - 1) + 1;
  // Back over the lines of this block: to a line after a blank one, or one opening a list item.
  while (from > 0 && !/^\s*(?:[-*+]|\d+[.)])\s/.test(markdown.slice(from, end))) {
    const prev = markdown.lastIndexOf("\n", from - 2) + 1;
    if (!markdown.slice(prev, from - 1).trim() || /^#{1,6}\s/.test(markdown.slice(prev, from))) {
      break;
    }
    from = prev;
  }
  // Then forward to the start of the sentence the window began in: the block may be long.
  const rel = start - from;
  const first = splitSentences(markdown.slice(from, end)).filter((u) => u.start <= rel).pop();
  const begin = from + (first?.start ?? rel);
  return { text: markdown.slice(begin, end), offset: begin };
}

/**
 * "How do tokens work?" and "What is a space?" ask what something is. The page titled with
 * that topic says it in its lead (the text above its first section), and another page may
 * define it in a sentence ("A *space* is a wiki that belongs to…"); but such a passage holds
 * the topic word once or twice among many passages full of it, and ranks below them, so it is
 * left out (eight passages, two a page). For such a question the named page's lead and up to
 * two chunks that define the topic, if among the considered chunks, move up to follow the
 * best chunk.
 */
function leadOfNamedPage<T extends { chunk_id: number }>(
  question: string,
  considered: T[],
  rows: Map<number, { title: string; heading_path: string[]; text: string | null }>,
): T[] {
  const topic = definitionTopic(question);
  if (!topic || considered.length < 2) return considered;
  const lead = considered.find((h) => {
    const row = rows.get(h.chunk_id)!;
    return row.heading_path.length <= 1 &&
      sameTerms([...contentTerms(row.title).keys()], topic);
  });
  const defining = considered.filter((h) =>
    h !== lead &&
    splitSentences(rows.get(h.chunk_id)!.text ?? "").some((s) =>
      (s.kind === "prose" || s.kind === "item") && definesTopic(plainText(s), topic)
    )
  ).slice(0, 2);
  const up = [lead, ...defining].filter((h): h is T => h !== undefined && h !== considered[0]);
  if (up.length === 0) return considered;
  return [considered[0]!, ...up, ...considered.slice(1).filter((h) => !up.includes(h))];
}

import type { Deps } from "../deps.ts";
import { rankChunks, withTexts } from "../search/search_wikis.ts";
import { sourceFreshness } from "../sync/freshness.ts";
import { pageUrl } from "../wikis/urls.ts";
import { selectPageMarkdown } from "./store.ts";

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
  /** Where `text` starts in `markdown`, or -1 when the chunk was re-joined (a long section). */
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
 * per page.
 */
export async function retrievePassages(
  deps: Pick<Deps, "db" | "embedder" | "log" | "config">,
  wikiIds: string[],
  question: string,
): Promise<Passage[]> {
  const { hits, rows } = await rankChunks(deps, wikiIds, question, "hybrid", {
    texts: CONSIDERED,
  });
  const considered = await withTexts(deps, hits.slice(0, CONSIDERED), rows);
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
      text: row.text,
      score: hit.score,
      markdown: markdown.get(Number(row.page_id)) ?? "",
      offset: (markdown.get(Number(row.page_id)) ?? "").indexOf(row.text),
      freshness: sourceFreshness(row),
    });
    if (passages.length >= MAX_PASSAGES) break;
  }
  return passages;
}
